/**
 * A space a screen reader hears between two parts a layout sets apart (a step's number
 * and its name, the institution's name and the application's title, a label and its
 * "(required)"). Orca read "1About You" and "Gender(required)": a plain space between flex
 * items or before a visually hidden text is dropped from the text Chromium gives it, a
 * no-break space in a visually hidden span is not, and nothing shows on the screen.
 */
export function SpokenSpace({ after = '' }: { after?: string }) {
  return <span className="visually-hidden">{`\u00a0${after}`}</span>;
}
