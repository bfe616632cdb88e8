/**
 * HTML for the sandbox console, written with the `html` template tag: every value put into a
 * template is escaped unless it is itself HTML made by `html`, so data shown from the CRM can never
 * become markup.
 */

export class Html {
	constructor(readonly text: string) {}

	toString(): string {
		return this.text;
	}
}

export type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

function render(value: Value): string {
	if (value instanceof Html) return value.text;
	if (Array.isArray(value)) return value.map(render).join('');
	if (value === null || value === undefined || value === false) return '';
	return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
	return new Html(strings.reduce((out, text, index) => out + render(values[index - 1]) + text));
}

/** `<option>`s with the selected one marked. */
export function options(
	choices: ReadonlyArray<{ value: string | number; label: string }>,
	selected: string | number | null | undefined,
): Html {
	return html`${choices.map(
		({ value, label }) =>
			html`<option value="${value}" ${String(value) === String(selected ?? '') ? html`selected` : ''}>
				${label}
			</option>`,
	)}`;
}

/** A labelled text input. */
export function textInput(label: string, name: string, value: unknown, attributes: Html = html``): Html {
	return html`<label
		><span>${label}</span
		><input name="${name}" value="${value === null || value === undefined ? '' : String(value)}" ${attributes}
	/></label>`;
}

/** A labelled select; `none` adds a first, empty choice with that text. */
export function selectInput(
	label: string,
	name: string,
	choices: ReadonlyArray<{ value: string | number; label: string }>,
	selected: string | number | null | undefined,
	none?: string,
): Html {
	return html`<label
		><span>${label}</span
		><select name="${name}">
			${none ? html`<option value="">${none}</option>` : ''}${options(choices, selected)}
		</select></label
	>`;
}

export interface Column<T> {
	label: string;
	cell: (row: T) => Value;
	/** A class for the cell, e.g. to colour a status. */
	className?: (row: T) => string;
}

/**
 * A table with one row per record; `rowAttributes` adds attributes to each `<tr>` (e.g. `data-hook`).
 * Without a record it says so, in `empty` (what is missing, and how it comes) or in a plain "None".
 */
export function table<T>(
	id: string,
	rows: readonly T[],
	columns: Column<T>[],
	rowAttributes?: (row: T) => Html,
	empty: Value = 'None.',
): Html {
	return html`<table id="${id}">
		<thead>
			<tr>
				${columns.map((column) => html`<th>${column.label}</th>`)}
			</tr>
		</thead>
		<tbody>
			${rows.map(
				(row) =>
					html`<tr ${rowAttributes?.(row)}>
						${columns.map((column) => html`<td class="${column.className?.(row)}">${column.cell(row)}</td>`)}
					</tr>`,
			)}
		</tbody>
		${
			rows.length
				? ''
				: html`<tfoot>
						<tr>
							<td class="empty" colspan="${columns.length}">${empty}</td>
						</tr>
					</tfoot>`
		}
	</table>`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2933; background: #f5f7fa; }
header { background: #243b53; color: #fff; padding: 10px 24px; display: flex; gap: 24px; align-items: baseline; }
header a { color: #d9e2ec; text-decoration: none; font-weight: 600; }
header a.current { color: #fff; border-bottom: 2px solid #f0b429; }
header .title { font-size: 16px; font-weight: 700; margin-right: 12px; }
header .site { margin-left: auto; font-size: 13px; }
main { padding: 16px 24px; max-width: 1280px; }
h1 { font-size: 20px; margin: 8px 0 12px; }
h2 { font-size: 16px; margin: 20px 0 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #e4e7eb; vertical-align: top; }
th { background: #e4e7eb; font-weight: 600; }
form.inline { display: inline; }
fieldset { background: #fff; border: 1px solid #cbd2d9; margin: 0 0 16px; padding: 12px 16px; }
legend { font-weight: 600; }
label { display: inline-block; margin: 4px 16px 4px 0; }
label span { display: block; font-size: 12px; color: #52606d; }
input, select, textarea { font: inherit; padding: 3px 5px; }
textarea { width: 40em; height: 5em; }
button, a.button { font: inherit; padding: 4px 12px; cursor: pointer; }
a.button { border: 1px solid #7b8794; border-radius: 3px; background: #fff; color: inherit; text-decoration: none; margin-left: 8px; }
.notice { background: #e3f9e5; border: 1px solid #8eedc7; padding: 8px 12px; margin-bottom: 12px; }
.errors { background: #ffe3e3; border: 1px solid #ff9b9b; padding: 8px 12px; margin-bottom: 12px; }
.muted { color: #7b8794; font-size: 12px; }
.status-ok { color: #0e7c4a; font-weight: 600; }
.status-failed { color: #c62828; font-weight: 600; }
td.empty { color: #52606d; font-style: italic; padding: 10px 8px; }
.progress { background: #fffbea; border: 1px solid #f7d070; padding: 8px 12px; margin-bottom: 12px; }
pre { white-space: pre-wrap; margin: 4px 0; font-size: 12px; max-width: 40em; }
`;

export type Section = 'contacts' | 'properties' | 'webhooks';

export interface Layout {
	title: string;
	section: Section;
	siteId: number;
	sites: ReadonlyArray<{ site_id: number; name: string }>;
	notice?: string;
	/** What came of the deliveries the notice's change caused (console/aftermath.ts). */
	progress?: Html;
	/** While set, the page loads itself again after that many seconds. */
	refreshSeconds?: number;
	errors?: string[];
}

/** A whole page: the header with the sections and the site switch, a notice or errors, the content. */
export function page(
	{ title, section, siteId, sites, notice, progress, refreshSeconds, errors }: Layout,
	content: Html,
): Html {
	const link = (target: Section, label: string) =>
		html`<a href="/console/${target}?site=${siteId}" class="${target === section ? 'current' : ''}">${label}</a>`;
	return html`<!doctype html>
		<html lang="en">
			<head>
				<meta charset="utf-8" />
				<title>${title} · Agency CRM sandbox console</title>
				${refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}" />` : ''}
				<style>
					${new Html(STYLE)}
				</style>
			</head>
			<body>
				<header>
					<span class="title">Agency CRM sandbox</span>
					${link('contacts', 'Contacts')} ${link('properties', 'Properties')} ${link('webhooks', 'Webhooks')}
					<span class="site"
						>Site:
						${sites.map((site, index) => [
							index ? ' · ' : '',
							site.site_id === siteId
								? html`<strong>${site.name}</strong>`
								: html`<a href="/console/${section}?site=${site.site_id}">${site.name}</a>`,
						])}</span
					>
				</header>
				<main>
					${notice ? html`<div class="notice" role="status">${notice}</div>` : ''}
					${progress ? html`<div class="progress" id="aftermath">${progress}</div>` : ''}
					${
						errors?.length
							? html`<div class="errors" role="alert">
									<ul>
										${errors.map((error) => html`<li>${error}</li>`)}
									</ul>
								</div>`
							: ''
					}
					<h1>${title}</h1>
					${content}
				</main>
			</body>
		</html>`;
}
