import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP load balancer on loopback, in front of queue mode's webhook processors as
 * agencies put one (nginx, a cloud load balancer): each request goes whole to the next upstream
 * port, and its answer comes back as it is. The upstreams can change between bursts.
 */
export interface LoadBalancer {
	url: string;
	setUpstreams(ports: number[]): void;
	close(): Promise<void>;
}

export async function startLoadBalancer(): Promise<LoadBalancer> {
	let upstreams: number[] = [];
	let next = 0;
	const server = http.createServer((request, response) => {
		const port = upstreams[next++ % upstreams.length];
		const forwarded = http.request(
			{ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		forwarded.on('error', () => {
			if (!response.headersSent) response.writeHead(502);
			response.end();
		});
		request.pipe(forwarded);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		setUpstreams(ports) {
			upstreams = ports;
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
