/**
 * A result already serialised: a JSON array's text exactly as `JSON.stringify` writes the array
 * (of `T`s), and how many entries it holds. An answer embeds the text as it is, so a page
 * assembled from kept rows is not parsed and serialised again; anything else that serialises it
 * gets the array.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- T types the text's entries for the route's response check.
export class JsonArrayText<T = unknown> {
  constructor(
    readonly text: string,
    readonly length: number,
  ) {}

  toJSON(): T[] {
    return JSON.parse(this.text) as T[];
  }
}
