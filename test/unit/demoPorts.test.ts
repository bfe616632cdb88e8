import net from 'node:net';

import { demoPorts, describePorts, portsInUse } from '../../tools/demo/ports';

test('the demo leaves a local n8n (5678, 5679) and the test suites (5710 and up) alone by default', () => {
	expect(demoPorts({})).toEqual({ n8n: 5690, broker: 5691, sandbox: 4010, standIn: 4011 });
	expect(describePorts(demoPorts({}))).toBe(
		'AGENCY_CRM_N8N_PORT=5690 AGENCY_CRM_N8N_BROKER_PORT=5691 AGENCY_CRM_SANDBOX_PORT=4010 AGENCY_CRM_STAND_IN_PORT=4011',
	);
});

test('every port has its variable; the broker follows n8n and the stand-in the sandbox unless set', () => {
	expect(demoPorts({ AGENCY_CRM_N8N_PORT: '7000', AGENCY_CRM_SANDBOX_PORT: '7100' })).toEqual({
		n8n: 7000,
		broker: 7001,
		sandbox: 7100,
		standIn: 7101,
	});
	expect(
		demoPorts({
			AGENCY_CRM_N8N_PORT: '7000',
			AGENCY_CRM_N8N_BROKER_PORT: '7050',
			AGENCY_CRM_SANDBOX_PORT: '7100',
			AGENCY_CRM_STAND_IN_PORT: '7150',
		}),
	).toEqual({ n8n: 7000, broker: 7050, sandbox: 7100, standIn: 7150 });
});

test('a bad port is refused naming its variable', () => {
	expect(() => demoPorts({ AGENCY_CRM_SANDBOX_PORT: 'abc' })).toThrow(
		'AGENCY_CRM_SANDBOX_PORT must be a port from 1024 to 65535 (got "abc")',
	);
	expect(() => demoPorts({ AGENCY_CRM_N8N_PORT: '80' })).toThrow('AGENCY_CRM_N8N_PORT must be a port from 1024');
	expect(() => demoPorts({ AGENCY_CRM_STAND_IN_PORT: '6000' })).toThrow(
		"AGENCY_CRM_STAND_IN_PORT=6000: Node's fetch refuses to call this port",
	);
	expect(() => demoPorts({ AGENCY_CRM_SANDBOX_PORT: '5690' })).toThrow(
		'AGENCY_CRM_N8N_PORT and AGENCY_CRM_SANDBOX_PORT are both 5690: each needs its own port',
	);
});

test('a port in use is named with its variable', async () => {
	const holder = net.createServer();
	await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
	const taken = (holder.address() as net.AddressInfo).port;
	try {
		const ports = demoPorts({ AGENCY_CRM_SANDBOX_PORT: String(taken), AGENCY_CRM_N8N_PORT: String(taken + 10) });
		const problems = await portsInUse(ports);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(
			new RegExp(
				`^port ${taken} \\(AGENCY_CRM_SANDBOX_PORT\\) is in use( by pid ${process.pid} \\(.+\\))?: set AGENCY_CRM_SANDBOX_PORT to a free port$`,
			),
		);
	} finally {
		holder.close();
	}
});
