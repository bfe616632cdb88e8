import { once } from 'node:events';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

import type { SandboxOptions } from '../sandbox';
import { startSandbox } from '../sandbox';

/**
 * A sandbox in a worker thread of the bench's process, so that it has a core of its own as a remote
 * API would and the bench's own work never delays its answers. Closed on request, so that a fresh
 * one can take the same port (and the credentials that name it stay valid).
 */
export interface SandboxThread {
	origin: string;
	port: number;
	close(): Promise<void>;
}

const MARKER = 'agencyCrmSandboxThread';

export async function startSandboxThread(options: SandboxOptions): Promise<SandboxThread> {
	const worker = new Worker(__filename, { workerData: { [MARKER]: { ...options, quiet: true } } });
	const [ready] = (await Promise.race([once(worker, 'message'), once(worker, 'error')])) as [
		{ origin: string; port: number } | Error,
	];
	if (ready instanceof Error) throw ready;
	return {
		...ready,
		async close() {
			worker.postMessage('close');
			await once(worker, 'message');
			await worker.terminate();
		},
	};
}

async function serve(options: SandboxOptions): Promise<void> {
	const sandbox = await startSandbox(options);
	parentPort?.postMessage({ origin: sandbox.origin, port: sandbox.port });
	parentPort?.once('message', () => {
		void sandbox.close().then(() => parentPort?.postMessage('closed'));
	});
}

const options = (workerData as Record<string, SandboxOptions> | null)?.[MARKER];
if (!isMainThread && options) void serve(options);
