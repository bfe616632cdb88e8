import { isMainThread } from 'node:worker_threads';

/**
 * The entry of a bench whose sandbox runs in a worker thread started from the bench's own file:
 * in the main thread, `main` (exiting 1 on a failure); in the worker, `serve`.
 */
export function benchEntry(main: () => Promise<void>, serve: () => Promise<void>): void {
	if (isMainThread) {
		main().catch((error: unknown) => {
			console.error(error);
			process.exit(1);
		});
	} else {
		void serve();
	}
}
