/** Text put into HTML: every character that could open markup or leave an attribute is written as an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}
