import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { ExampleWorkflow } from '../n8n/examples';
import { importJson, n8nCli, N8nInstance } from '../n8n/launcher';
import type { Credential } from '../n8n/workflows';

/**
 * The demo's credential and example workflows, imported into its n8n idempotently: with their own
 * ids (never a copy), only when missing or when the demo's version changed (an example file edited,
 * a port moved), and never over a user's edits. `imports.json` keeps a digest of what was imported;
 * when the demo's version changed, n8n's copy is read back (`n8n export`): unchanged since it was
 * imported, it is replaced; edited in n8n, it is kept, and the demo says so.
 */

export interface ImportItem {
	kind: 'credentials' | 'workflow';
	/** What the demo imports. */
	data: Credential | ExampleWorkflow;
	/** How the user knows it: `examples/lead-routing.json`, `the credential "Agency CRM Sandbox"`. */
	label: string;
}

type Digests = Record<string, string>;

const RECORD = 'imports.json';

/** JSON with its keys sorted at every depth, so that equal content gives equal text. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
	);
}

/**
 * What counts as the item's content: a workflow's name, nodes, connections and settings (not its
 * published state, static data or executions); the fields the demo sets on its credential (not the
 * token n8n keeps beside them).
 */
function digest(kind: ImportItem['kind'], of: object, like: ImportItem['data']): string {
	const item = of as Record<string, unknown>;
	const content =
		kind === 'workflow'
			? { name: item.name, nodes: item.nodes, connections: item.connections, settings: item.settings }
			: {
					name: item.name,
					type: item.type,
					data: Object.fromEntries(
						Object.keys((like as Credential).data).map((key) => [key, (item.data as Record<string, unknown>)?.[key]]),
					),
				};
	return createHash('sha256')
		.update(JSON.stringify(canonical(content)))
		.digest('hex');
}

const keyOf = (item: ImportItem) => `${item.kind}:${item.data.id}`;

/** n8n's copies, by id, of every workflow or credential (decrypted), read with its CLI. */
async function exported(
	instance: N8nInstance,
	kind: ImportItem['kind'],
): Promise<Map<string, Record<string, unknown>>> {
	const file = path.join(instance.userFolder, `export-${kind}-${Date.now()}.json`);
	const command = kind === 'workflow' ? 'export:workflow' : 'export:credentials';
	const result = await n8nCli(instance, [
		command,
		'--all',
		...(kind === 'credentials' ? ['--decrypted'] : []),
		`--output=${file}`,
	]);
	// With nothing to export, n8n prints so and writes no file.
	if (!existsSync(file)) {
		if (result.code !== 0) throw new Error(`n8n ${command} failed:\n${result.stdout}\n${result.stderr}`);
		return new Map();
	}
	const items = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
	rmSync(file);
	return new Map(items.map((item) => [String(item.id), item]));
}

export interface ImportOutcome {
	/** The labels of the items imported for the first time. */
	added: string[];
	/** One line per thing the user should know: what was updated, what was kept and why. */
	notes: string[];
}

/** Imports what is missing or out of date, before n8n starts. `newFolder`: n8n has no data yet. */
export async function importIdempotently(
	instance: N8nInstance,
	folder: string,
	items: ImportItem[],
	newFolder: boolean,
): Promise<ImportOutcome> {
	const recordFile = path.join(folder, RECORD);
	const imported: Digests =
		!newFolder && existsSync(recordFile) ? (JSON.parse(readFileSync(recordFile, 'utf8')) as Digests) : {};
	const wanted = new Map(items.map((item) => [keyOf(item), digest(item.kind, item.data, item.data)]));
	const changed = items.filter((item) => imported[keyOf(item)] !== wanted.get(keyOf(item)));
	const notes: string[] = [];
	const added: string[] = [];
	const toImport: ImportItem[] = [];
	for (const kind of ['credentials', 'workflow'] as const) {
		const ofKind = changed.filter((item) => item.kind === kind);
		if (!ofKind.length) continue;
		const inN8n = newFolder ? new Map<string, Record<string, unknown>>() : await exported(instance, kind);
		for (const item of ofKind) {
			const key = keyOf(item);
			const current = inN8n.get(item.data.id);
			const currentDigest = current ? digest(kind, current, item.data) : undefined;
			if (!current && imported[key]) {
				notes.push(`${item.label}: deleted in n8n, and left so (npm start -- --fresh brings everything back)`);
			} else if (!current) {
				toImport.push(item);
				added.push(item.label);
			} else if (currentDigest === wanted.get(key)) {
				imported[key] = wanted.get(key)!;
			} else if (currentDigest === imported[key]) {
				toImport.push(item);
				const republish = current.active ? '; it was published: publish it again' : '';
				notes.push(`${item.label}: updated in n8n (its copy there was unchanged since the last import)${republish}`);
			} else {
				notes.push(
					`${item.label}: the demo's version changed, but its copy in n8n was edited there, so it is kept as it is` +
						(kind === 'workflow'
							? ' (the file can be imported beside it: Workflows → Import from File)'
							: `; it should point at ${String((item.data as Credential).data.authUrl)}`),
				);
			}
		}
	}
	for (const kind of ['credentials', 'workflow'] as const) {
		const batch = toImport.filter((item) => item.kind === kind);
		if (batch.length)
			await importJson(
				instance,
				kind,
				batch.map((item) => item.data),
			);
		for (const item of batch) imported[keyOf(item)] = wanted.get(keyOf(item))!;
	}
	writeFileSync(recordFile, JSON.stringify(imported, null, 2));
	return { added, notes };
}
