/** Types for linebreak 1.x (the package ships none): the UAX #14 break iterator, as text/line-break.ts uses it. */
declare module 'linebreak' {
  export interface Break {
    /** Index (UTF-16) where the next line would start. */
    position: number;
    /** A mandatory break (after a newline character). */
    required: boolean;
  }
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
