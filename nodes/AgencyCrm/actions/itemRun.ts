import type { Turn } from './writeOrder';

/**
 * One input item as it runs: its index, its place in the run's write order (writeOrder.ts), and
 * what the execution's hints should tell about it (a contact reused, a record read back, a search
 * that returned other contacts). The router gathers the notices of the run into one hint each,
 * naming their items.
 */
export interface ItemRun {
	index: number;
	turn: Turn;
	notices: string[];
}
