/** A lookup whose "not found" error means `null` (a search's miss, a nullable GraphQL field). */
export async function orNull<T>(lookup: Promise<T>, notFound: new (...args: never[]) => Error): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof notFound) return null;
    throw error;
  }
}
