/** Reading an object that may be gone, without mistaking a token problem for a deletion. */
import { NotFoundError } from "../client";
import { apiClient } from "./credentials";

/**
 * Runs `read`; a 404 means the object is gone, unless the API answers 404 to everything, which
 * is what a token without Web API access gets: then refreshing must fail rather than drop the
 * resource from the stack.
 */
export async function readUnlessGone<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    try {
      await apiClient().deployments.list();
    } catch (probe) {
      if (probe instanceof NotFoundError) {
        throw new Error(
          `${error.message}. The deployment list answers 404 too, so the token most likely lacks Web API access; ` +
            "nothing is treated as deleted until it has it.",
        );
      }
      throw probe;
    }
    return undefined;
  }
}

/** Prefixes an error's message with the resource it concerns. */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && !error.message.startsWith(subject)) error.message = `${subject}: ${error.message}`;
    throw error;
  }
}
