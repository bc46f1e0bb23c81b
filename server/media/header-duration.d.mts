/** Duration in seconds from the file's container header, or null (unusual or unreadable: ask a general parser). */
export function headerDuration(file: string, size: number): number | null;
/** The same from a buffer holding a whole file. */
export function headerDurationOfBuffer(buf: Buffer): number | null;
