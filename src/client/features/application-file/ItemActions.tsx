import type { ApplicationFileData, ApplicationFileItem } from './api/application-file-api.ts';

export interface ItemActionsProps {
  item: ApplicationFileItem;
  file: ApplicationFileData;
  /** read the file again after an action changed it */
  onChanged: () => void;
}

/** What the applicant can do about an item (ask their counselor, upload it): none yet. */
export function ItemActions(_props: ItemActionsProps) {
  return null;
}
