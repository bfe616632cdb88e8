/** What `pending` was rejected with; a promise that resolves fails the test here, naming what it gave. */
export async function failureOf<T = Error>(pending: Promise<unknown>): Promise<T> {
	let value: unknown;
	try {
		value = await pending;
	} catch (error) {
		return error as T;
	}
	throw new Error(`Expected a failure, got ${JSON.stringify(value)}`);
}
