/**
 * A name put into a Chinese sentence, with the space DESIGN.md asks for between Chinese and Latin
 * letters or digits on the side where it begins or ends with one: 「另一間 7-ELEVEN 門市」,
 * 「到黑貓宅急便網站」, 「到 OK超商網站」.
 */
export function inSentence(name: string): string {
  return `${/^[A-Za-z0-9]/.test(name) ? ' ' : ''}${name}${/[A-Za-z0-9]$/.test(name) ? ' ' : ''}`;
}
