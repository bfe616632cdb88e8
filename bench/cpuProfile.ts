import { readFileSync } from 'node:fs';

/**
 * Reads a V8 CPU profile (`node --cpu-prof`) and adds up where the time went: each sample's time
 * goes to the first area, from the top of its stack down, that claims one of its frames (self time
 * of an area's own code and of what it calls that no other area claims), and to every function
 * named in `inclusive` whose frame is anywhere on the stack.
 */
interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

export interface Area {
	name: string;
	/** Claims a frame by its URL and function name. */
	claims: (url: string, functionName: string) => boolean;
}

export interface ProfileSummary {
	totalMs: number;
	byArea: Array<{ name: string; ms: number }>;
	inclusive: Array<{ name: string; ms: number }>;
	/** The functions with the most self time: `name (file:line)`. */
	topSelf: Array<{ name: string; ms: number }>;
}

export function summariseProfile(
	file: string,
	areas: Area[],
	inclusive: Array<{ name: string; functionName: string; url?: string }>,
	/** Only the samples taken inside these spans (the profile's clock, in µs), when given. */
	windows?: Array<{ fromUs: number; toUs: number }>,
): ProfileSummary {
	const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

	const areaOf = new Map<number, string>();
	const inclusiveOf = new Map<number, Set<string>>();
	const resolve = (id: number): void => {
		if (areaOf.has(id)) return;
		const stack: ProfileNode[] = [];
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
		let area = 'other';
		for (const frame of stack) {
			const { url, functionName } = frame.callFrame;
			const found = areas.find((candidate) => candidate.claims(url, functionName));
			if (found) {
				area = found.name;
				break;
			}
		}
		areaOf.set(id, area);
		const names = new Set<string>();
		for (const frame of stack) {
			for (const wanted of inclusive) {
				const { url, functionName } = frame.callFrame;
				if (functionName === wanted.functionName && (!wanted.url || url.includes(wanted.url))) names.add(wanted.name);
			}
		}
		inclusiveOf.set(id, names);
	};

	const selfMs = new Map<string, number>();
	const areaMs = new Map<string, number>();
	const inclusiveMs = new Map<string, number>();
	let at = profile.startTime;
	let totalMs = 0;
	profile.samples.forEach((sample, index) => {
		at += profile.timeDeltas[index];
		if (windows && !windows.some((window) => at >= window.fromUs && at <= window.toUs)) return;
		const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
		resolve(sample);
		totalMs += ms;
		const { functionName, url, lineNumber } = byId.get(sample)!.callFrame;
		const self = `${functionName || '(anonymous)'} (${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1})`;
		selfMs.set(self, (selfMs.get(self) ?? 0) + ms);
		const area = areaOf.get(sample)!;
		areaMs.set(area, (areaMs.get(area) ?? 0) + ms);
		for (const name of inclusiveOf.get(sample)!) inclusiveMs.set(name, (inclusiveMs.get(name) ?? 0) + ms);
	});
	const sorted = (map: Map<string, number>) => [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
	return { totalMs, byArea: sorted(areaMs), inclusive: sorted(inclusiveMs), topSelf: sorted(selfMs).slice(0, 40) };
}
