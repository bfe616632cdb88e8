import { useSandbox } from '../support/sandbox/harness';
import { endpointShape, SPEC_ENDPOINTS } from '../support/spec/endpoints';

const h = useSandbox();

describe('the sandbox API routes', () => {
	test('cover exactly the endpoints of the spec, each once', () => {
		const ours = h.sandbox.endpoints.map(({ method, path }) => endpointShape(method, path));
		const spec = SPEC_ENDPOINTS.map(({ method, path }) => endpointShape(method, path));
		expect(new Set(ours).size).toBe(ours.length);
		expect([...ours].sort()).toEqual([...spec].sort());
	});
});
