import { Switch } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import frame from '../../../../schemas/text/frame.json';
import { fetchReminderSetting, saveReminderSetting } from './api/reminder-api.ts';

const text = frame.reminders;

/** The account menu's switch for deadline reminders: an applicant who stopped them by a link turns them back on here. */
export function ReminderSwitch() {
  const [on, setOn] = useState<boolean | undefined>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    fetchReminderSetting().then((reply) => current && setOn(reply.reminders), () => current && setFailed(true));
    return () => {
      current = false;
    };
  }, []);
  if (on === undefined && !failed) return null;
  const change = async (wanted: boolean) => {
    setFailed(false);
    try {
      setOn((await saveReminderSetting(wanted)).reminders);
    } catch {
      setFailed(true);
    }
  };
  return (
    <div className="account-popover-reminders">
      <Switch role="switch" checked={on ?? false} label={text.label} onChange={(event) => void change(event.currentTarget.checked)} aria-describedby="reminders-state" />
      <p id="reminders-state" className="account-popover-note" role="status">{failed ? text.failed : on ? text.on : text.off}</p>
    </div>
  );
}
