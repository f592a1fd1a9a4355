import { Button } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useMemo, useState } from 'react';
import lookupText from '../../../../schemas/text/lookup.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { useAnswersSelector, useApplicationSession } from '../../session/session-hooks.ts';
import { findRecord, findSuggestions, type Suggestion } from './api/lookup-api.ts';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';

/** the answers filled beside the ZIP, by their final keys (the generator resolves them per address block) */
interface SiblingKeys {
  city: string;
  state: string;
  country: string;
}

/**
 * `ui:widget: "zipLookup"` (address.ui.json): a US ZIP with its city and state offered under
 * it: five digits typed (country blank or United States) look the ZIP up, and one press
 * fills the block's city and state (the answers `ui:options.keys` names: city, state and country),
 * says so in a polite live region and puts the focus on the city.
 */
export default function ZipLookupWidget(props: WidgetProps) {
  const keys = props.options.keys as SiblingKeys;
  const watched = useMemo(() => [keys.city, keys.state, keys.country], [keys]);
  const { answers: answersStore } = useApplicationSession();
  const [city, state, country] = useAnswersSelector(watched, (answers) => `${answers[keys.city] ?? ''}\n${answers[keys.state] ?? ''}\n${answers[keys.country] ?? ''}`).split('\n');
  const zip = /^(\d{5})(?:-\d{0,4})?$/.exec(String(props.value ?? ''))?.[1];
  const inUs = !country || country === 'USA';
  const [found, setFound] = useState<Suggestion | null>(null);
  const [busy, setBusy] = useState(false);
  const [announced, setAnnounced] = useState('');

  useEffect(() => {
    setFound(null);
    if (!zip || !inUs) return;
    let live = true;
    void findSuggestions('address', zip, { max: 1 }).then((items) => {
      if (live) setFound(items.find((item) => item.id === zip) ?? null);
    });
    return () => {
      live = false;
    };
  }, [zip, inUs]);

  const place = found?.sub_text ?? '';
  const alreadyFilled = place !== '' && place.toLowerCase() === `${city}, ${state}`.toLowerCase();

  const fill = async () => {
    if (!found) return;
    setBusy(true);
    try {
      const record = await findRecord('address', found.id);
      const changes: Record<string, string> = {};
      if (record.city) changes[keys.city] = record.city;
      if (record.state) changes[keys.state] = record.state;
      answersStore.change(changes);
      // the button goes away once the place is filled: the focus moves to the city it filled, and the fill is announced
      setAnnounced(fillTemplate(lookupText.zip_filled, { place: [record.city, record.state].filter(Boolean).join(', ') }));
      requestAnimationFrame(() => document.getElementById(keys.city)?.focus());
    } catch {
      // the offer simply stays: city and state can be typed
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {/* digits on a phone keyboard for a US ZIP; any postal code (letters too) elsewhere */}
      <TextWidget {...props} options={inUs ? props.options : { ...props.options, inputMode: 'text' }} />
      {found && !alreadyFilled && (
        <Button className="zip-lookup-fill" variant="minimal" size="small" intent="primary" loading={busy} onClick={() => void fill()}>
          {fillTemplate(lookupText.zip_fill, { place })}
        </Button>
      )}
      <span className="visually-hidden" role="status">{announced}</span>
    </>
  );
}
