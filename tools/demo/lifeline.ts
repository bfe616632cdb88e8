import { ancestors, ProcessInfo, stillRuns } from '../processes';

/**
 * The demo lives as long as the `npm start` that started it. npm runs it as its own child
 * (`exec` in package.json, then in scripts/start-demo.sh), and passes a SIGINT or SIGTERM on to it;
 * but a SIGKILL to npm reaches nobody, and leaves this process running alone. So it watches npm (and
 * whatever may stand between them), and stops when one is gone.
 */

/** How many parents may stand between this process and npm (a shell where `exec` was left out), npm included. */
const LEVELS_UP_TO_NPM = 4;
const CHECK_EVERY_MS = 200;

/** npm's own process (its title is `npm start`, `npm run …`, or its cli script). */
const isNpm = (info: ProcessInfo) => /^npm\b|npm-cli\.js/.test(info.command);

/** The processes to outlive nothing of: up to npm when npm started this one, else the parent only. */
export function lifeline(): ProcessInfo[] {
	const parents = ancestors(process.pid, LEVELS_UP_TO_NPM);
	const npm = parents.findIndex(isNpm);
	return npm === -1 ? parents.slice(0, 1) : parents.slice(0, npm + 1);
}

/** Calls `onLost` once, with the process gone, as soon as one of `lifeline()` is; answers how to stop watching. */
export function watchLifeline(onLost: (gone: ProcessInfo) => void): { watched: ProcessInfo[]; stop(): void } {
	const watched = lifeline();
	const timer = setInterval(() => {
		const gone = watched.find((info) => !stillRuns(info));
		if (!gone) return;
		clearInterval(timer);
		onLost(gone);
	}, CHECK_EVERY_MS);
	timer.unref();
	return { watched, stop: () => clearInterval(timer) };
}
