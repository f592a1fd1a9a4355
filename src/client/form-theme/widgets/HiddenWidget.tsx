/** Answers that are kept but never shown. */
export default function HiddenWidget() {
  return null;
}
