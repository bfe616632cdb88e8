import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { endpointShape, SPEC_ENDPOINTS } from '../spec/endpoints';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ quiet: true });
});
afterAll(() => sandbox.close());

describe('the sandbox API routes', () => {
	test('cover exactly the endpoints of the spec, each once', () => {
		const ours = sandbox.endpoints.map(({ method, path }) => endpointShape(method, path));
		const spec = SPEC_ENDPOINTS.map(({ method, path }) => endpointShape(method, path));
		expect(new Set(ours).size).toBe(ours.length);
		expect([...ours].sort()).toEqual([...spec].sort());
	});
});
