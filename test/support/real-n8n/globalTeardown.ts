export default async function globalTeardown() {
	await (globalThis as { agencyCrmSandbox?: { close(): Promise<void> } }).agencyCrmSandbox?.close();
}
