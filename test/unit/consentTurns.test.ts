import { endpointOf } from '../../nodes/AgencyCrm/catalogue';
import type { PreparedRequest } from '../../nodes/AgencyCrm/catalogue/types';

// Seen in real n8n (leadRouting, n8n 1.123): two leads for one contact set its consent side by side,
// one second apart; the first read back the second's date and failed as unconfirmed.
test('Consent → Set on one contact writes that contact: items for it take turns in input order', () => {
	const endpoint = endpointOf('consent:set');
	const on = (path: string) => endpoint.writes!({ path, body: {} } as unknown as PreparedRequest);
	expect(on('/customers/42/consent')).toEqual(['path:/customers/42/consent']);
	expect(on('/customers/42/consent')).toEqual(on('/customers/42/consent'));
	expect(on('/customers/43/consent')).not.toEqual(on('/customers/42/consent'));
});
