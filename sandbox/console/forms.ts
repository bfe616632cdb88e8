/**
 * From the console's HTML forms to the JSON the sandbox's readers check: forms carry text only,
 * so numbers, empty fields and lists are converted here, and the API's own readers
 * (sandbox/resources) judge the values, as they would in a request. Their problems come back
 * named by each field's label.
 */
import { ApiError } from '../http';
import type { Html } from './html';

/** What a console page answers: a page, or a redirect after a form was accepted. */
export type ConsoleReply = { status?: number; page: Html } | { redirect: string };

/** A form's fields: the text of each, by name (the last value when a name repeats). */
export type FormFields = Record<string, string>;

/** An empty field is null (cleared); any other text is kept for the reader to judge. */
export function textOrNull(form: FormFields, name: string): string | null {
	const value = (form[name] ?? '').trim();
	return value === '' ? null : value;
}

/** Several fields as `textOrNull` reads them, by name. */
export function textsOrNull(form: FormFields, names: readonly string[]): Record<string, string | null> {
	return Object.fromEntries(names.map((name) => [name, textOrNull(form, name)]));
}

/** A number when the text is one, null when empty, else the text itself (the reader says "must be a number"). */
export function numberOrNull(form: FormFields, name: string): number | string | null {
	const value = textOrNull(form, name);
	if (value === null) return null;
	return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** The messages of a validation error, each field named by its label; any other error is thrown on. */
export function problemsOf(error: unknown, labels: Record<string, string>): string[] {
	if (!(error instanceof ApiError) || error.status !== 422) throw error;
	const details = error.details ?? [{ field: '', message: error.message }];
	return details.map(({ field, message }) => `${labels[field] ?? field}: ${message}`);
}

/** Runs a form's change; on a validation error, shows the form again (status 422) with its problems. */
export async function accepting(
	change: () => ConsoleReply | Promise<ConsoleReply>,
	labels: Record<string, string>,
	showAgain: (problems: string[]) => Html,
): Promise<ConsoleReply> {
	try {
		return await change();
	} catch (error) {
		return { status: 422, page: showAgain(problemsOf(error, labels)) };
	}
}

/** Redirects to `target` with a notice shown at the top of that page. */
export function redirectWithNotice(target: string, notice: string): ConsoleReply {
	const separator = target.includes('?') ? '&' : '?';
	return { redirect: `${target}${separator}notice=${encodeURIComponent(notice)}` };
}
