import type { N8nCommand, N8nInstance, N8nProcess, N8nVersion } from '../../../tools/n8n/launcher';
import { createInstance, startN8n } from '../../../tools/n8n/launcher';
import type { Service } from './services';
import { startPostgres, startRedis } from './services';

/**
 * n8n in queue mode on loopback, as agencies run it when one process is not enough: a main
 * instance, workers and webhook processors sharing PostgreSQL, Redis and the encryption key, each
 * with this package installed in its own user folder. Hooks are registered with `webhookUrl` (a
 * webhook processor, or a load balancer in front of several); the main instance serves no
 * production webhooks. For test/queue-mode and `npm run bench`.
 */
export class QueueCluster {
	readonly processes: Record<string, N8nProcess> = {};

	readonly instances: Record<string, N8nInstance> = {};

	private constructor(
		private readonly n8n: N8nVersion,
		private readonly services: Service[],
		private readonly shared: NodeJS.ProcessEnv,
	) {}

	static async create(n8n: N8nVersion, webhookUrl: string): Promise<QueueCluster> {
		const [redis, postgres] = await Promise.all([startRedis(), startPostgres('n8n')]);
		return new QueueCluster(n8n, [redis, postgres], {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			WEBHOOK_URL: webhookUrl,
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		});
	}

	/** One process of the cluster, `name`d: its own user folder (the package installed there), the shared state. */
	instance(name: string, port: number, env: NodeJS.ProcessEnv = {}): N8nInstance {
		const instance = createInstance(`queue-${name}`, port, this.n8n);
		instance.env = { ...instance.env, ...this.shared, ...env };
		this.instances[name] = instance;
		return instance;
	}

	async start(name: string, command: N8nCommand, args: string[] = []): Promise<N8nProcess> {
		this.processes[name] = await startN8n(this.instances[name], command, { args });
		return this.processes[name];
	}

	async stop(): Promise<void> {
		await Promise.all(Object.values(this.processes).map(async (process) => await process.stop()));
		await Promise.all(this.services.map(async (service) => await service.stop()));
	}
}
