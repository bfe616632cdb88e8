import { Measured, measuredNow, recordResults } from '../results';

/**
 * What `npm start` records about itself in .cache/results/npm-start.json, per kind of start (the
 * first, which installs; one that rebuilt after a change; one that found everything ready): how long
 * until its banner said ready. The first start's notice and docs/ quote the copy in docs/results/.
 */

export type StartKind = 'firstStart' | 'rebuiltStart' | 'start';

export type StartResults = Partial<Record<StartKind, Measured & { seconds: number }>>;

/** scripts/start-demo.sh says which kind of start this was. */
export function startKindOf(env: NodeJS.ProcessEnv): StartKind {
	const kind = env.AGENCY_CRM_START_KIND;
	return kind === 'firstStart' || kind === 'rebuiltStart' ? kind : 'start';
}

export function recordStart(kind: StartKind, seconds: number): void {
	recordResults<StartResults>('npm-start', (previous) => ({ ...previous, [kind]: { ...measuredNow(), seconds } }));
}
