import type { IHookFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ANSWER } from '../shared/answer';
import { EVENT_TYPES, productionEventOf } from '../shared/events';
import { productionFetches, productionIncludes } from '../shared/relations';
import { listEntries } from '../shared/values';
import type { ResourceType } from './notification';
import { DEFAULT_CONTACT_COMPARED, DEFAULT_IGNORED_FIELDS, DEFAULT_PROPERTY_COMPARED, WHEN_GONE } from './parameters';

/**
 * What the user chose, read once per activation or delivery (n8n builds a context for each), and
 * judged in one call (`problemsOf`), as the action node judges an item before its request.
 */
export interface TriggerSettings {
	/** The events chosen, as production's constants, each once, sorted. */
	events: string[];
	/** What Events holds that names no event production sends, as given. */
	unknownEvents: string[];
	fetchFull: boolean;
	/** Skip Unchanged Records (it needs Fetch Full Record). */
	skipUnchanged: boolean;
	dropRepeats: boolean;
	/** Catch Up on Missed Changes (it needs Drop Repeated Deliveries). */
	catchUp: boolean;
	/** Answer: From the Workflow (an Agency CRM Answer node answers each delivery that starts it). */
	answeredByWorkflow: boolean;
	/** When the Record Is Gone: Start Nothing. */
	skipGone: boolean;
	/** Related data fetched with each kind of record: the chosen, and those Skip Unchanged Records compares. */
	relations: Record<ResourceType, string[]>;
	/** Field names whose change alone is no change (Skip Unchanged Records). */
	ignored: string[];
}

type ParameterReader = Pick<IHookFunctions, 'getNodeParameter'>;

/** The entries of a list parameter as the user gave them (editor list, expression list or comma text), each once. */
const nameList = (value: unknown): string[] => [...new Set(listEntries(value))];

/** The events of the Events parameter: production's constants, and what names none of them. */
function eventsOf(value: unknown): Pick<TriggerSettings, 'events' | 'unknownEvents'> {
	const given = nameList(value);
	const known = given.map(productionEventOf);
	return {
		events: [...new Set(known.filter((event): event is string => event !== undefined))].sort(),
		unknownEvents: given.filter((_, index) => known[index] === undefined),
	};
}

/** What each kind of record is fetched with: 0.1.0's values read as production's (shared/relations.ts). */
function relationsOf(read: <T>(name: string, fallback: T) => T, fetchFull: boolean, skipUnchanged: boolean) {
	const chosen = (name: string) => (fetchFull ? nameList(read(name, [])) : []);
	const compared = (name: string, fallback: string[]) => (skipUnchanged ? nameList(read(name, fallback)) : []);
	return {
		customer: productionIncludes(
			nameList([...chosen('customerInclude'), ...compared('contactCompared', DEFAULT_CONTACT_COMPARED)]),
		),
		product: productionFetches(
			nameList([...chosen('productFetch'), ...compared('productCompared', DEFAULT_PROPERTY_COMPARED)]),
		),
	};
}

/**
 * Every parameter the trigger reads, once. A parameter n8n hides (its options' conditions unmet)
 * takes its fallback: the defaults of versions 1 and 1.1, whose workflows kept them.
 */
export function readSettings(context: ParameterReader): TriggerSettings {
	const read = <T>(name: string, fallback: T) => context.getNodeParameter(name, fallback) as T;
	const fetchFull = read('fetchFullRecord', true);
	const skipUnchanged = fetchFull && read('skipUnchangedRecords', false);
	const dropRepeats = read('dropRepeatedDeliveries', false);
	return {
		...eventsOf(read<unknown>('events', [])),
		fetchFull,
		skipUnchanged,
		dropRepeats,
		catchUp: dropRepeats && read('catchUp', false),
		answeredByWorkflow: read<string>('answer', ANSWER.immediately) === ANSWER.fromWorkflow,
		skipGone: read<string>('whenRecordGone', WHEN_GONE.start) === WHEN_GONE.skip,
		relations: relationsOf(read, fetchFull, skipUnchanged),
		ignored: skipUnchanged ? nameList(read('ignoredFields', DEFAULT_IGNORED_FIELDS)) : [],
	};
}

const EVENT_NAMES = `${EVENT_TYPES.join(', ')}, or the spec's dotted names such as property.updated`;

/** What makes the settings unusable, each naming its parameter by its label: nothing when they are fine. */
export function problemsOf(settings: TriggerSettings): string[] {
	const problems: string[] = [];
	if (settings.unknownEvents.length) {
		const names = settings.unknownEvents.map((name) => JSON.stringify(name)).join(', ');
		problems.push(`"Events" holds ${names}, which Agency CRM does not send: use ${EVENT_NAMES}`);
	} else if (!settings.events.length) {
		problems.push('"Events" is required: a trigger with no event would never start its workflow');
	}
	return problems;
}

/** Fails an activation whose settings have a problem, before any request. */
export function assertUsable(node: INode, settings: TriggerSettings): void {
	const problems = problemsOf(settings);
	if (!problems.length) return;
	throw new NodeOperationError(node, `Invalid input: ${problems.join('; ')}`, {
		description:
			'Nothing was sent to Agency CRM. Choose the events in "Events" (or give them as a list or a comma-separated text) and activate again.',
	});
}
