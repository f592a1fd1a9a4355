import { useServiceData } from '../../session/api/session-api.ts';
import { FILE_TEXTS } from '../../../shared/file-items/item-words.ts';
import { FileChecklist } from './ApplicationFile.tsx';

/**
 * The application file in the read-only service view, and so in the PDF copy printed from
 * it: each item with whether it is required, its state and the day it changed, once the
 * application is submitted. Staff read the states only: no intro, no actions.
 */
export function StaffApplicationFile() {
  const file = useServiceData(true)?.application_file;
  // loaded apart from the page: the PDF printer waits for this mark before it prints the first page
  if (!file?.submitted) return <span hidden data-staff-file-shown />;
  return (
    <>
      <span hidden data-staff-file-shown />
      <FileChecklist file={file} heading={FILE_TEXTS.staff_heading} intro={false} idPrefix="staff-file" />
    </>
  );
}
