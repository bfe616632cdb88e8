/**
 * A route table matching `METHOD /path/{param}` patterns. Literal segments win over parameters
 * (`GET /customers/groups` before `GET /customers/{customerId}`), whatever the declaration order.
 */

export interface RoutePattern {
	method: string;
	pattern: string;
}

export interface RouteMatch<R> {
	route: R;
	params: Record<string, string>;
}

interface CompiledRoute<R> {
	route: R;
	/** A literal segment, or `null` for a parameter whose name is in `paramNames`. */
	segments: (string | null)[];
	paramNames: string[];
}

export function routeKey(route: RoutePattern): string {
	return `${route.method} ${route.pattern}`;
}

function pathSegments(path: string): string[] {
	return path.split('/').filter((segment) => segment.length > 0);
}

export class RouteTable<R extends RoutePattern> {
	/** Keyed by `METHOD segmentCount`, most specific first. */
	private readonly candidates = new Map<string, CompiledRoute<R>[]>();

	constructor(routes: readonly R[]) {
		for (const route of routes) this.add(route);
	}

	match(method: string, path: string): RouteMatch<R> | undefined {
		const segments = pathSegments(path);
		const candidates = this.candidates.get(`${method} ${segments.length}`);
		if (!candidates) return undefined;
		for (const candidate of candidates) {
			const params = matchSegments(candidate, segments);
			if (params) return { route: candidate.route, params };
		}
		return undefined;
	}

	private add(route: R): void {
		const parts = pathSegments(route.pattern);
		const compiled: CompiledRoute<R> = {
			route,
			segments: parts.map((part) => (part.startsWith('{') ? null : part)),
			paramNames: parts.filter((part) => part.startsWith('{')).map((part) => part.slice(1, -1)),
		};
		const key = `${route.method} ${parts.length}`;
		const list = this.candidates.get(key) ?? [];
		if (list.some((other) => routeKey(other.route) === routeKey(route)))
			throw new Error(`Duplicate route ${routeKey(route)}`);
		list.push(compiled);
		list.sort(bySpecificity);
		this.candidates.set(key, list);
	}
}

function matchSegments<R>(candidate: CompiledRoute<R>, segments: string[]): Record<string, string> | undefined {
	const params: Record<string, string> = {};
	let paramIndex = 0;
	for (let i = 0; i < segments.length; i++) {
		const expected = candidate.segments[i];
		if (expected === null) {
			const value = safeDecode(segments[i]);
			if (value === undefined) return undefined;
			params[candidate.paramNames[paramIndex++]] = value;
		} else if (expected !== segments[i]) return undefined;
	}
	return params;
}

function safeDecode(segment: string): string | undefined {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

function bySpecificity<R>(a: CompiledRoute<R>, b: CompiledRoute<R>): number {
	for (let i = 0; i < a.segments.length; i++) {
		const aLiteral = a.segments[i] !== null;
		const bLiteral = b.segments[i] !== null;
		if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
	}
	return 0;
}
