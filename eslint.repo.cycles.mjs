import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * `repo/no-cycle` (eslint.repo.config.mjs): no file reaches itself through its imports, type-only
 * imports and re-exports included. import-x/no-cycle skips type-only imports, yet a circle of types
 * still ties its files together: neither can be read, moved or tested without the other. The graph is
 * TypeScript's own reading of each file's imports and module resolution; the file being linted takes
 * part with its imports as written, the others as they are on disk.
 */

const ROOT = import.meta.dirname;
const OPTIONS = { moduleResolution: ts.ModuleResolutionKind.Node10, resolveJsonModule: true };

/** A specifier imported from `from`, as the repository file it names (none: a package, or not TypeScript). */
function resolvedFile(specifier, from) {
	const { resolvedModule } = ts.resolveModuleName(specifier, from, OPTIONS, ts.sys);
	if (!resolvedModule || resolvedModule.isExternalLibraryImport) return undefined;
	const file = path.resolve(resolvedModule.resolvedFileName);
	return /\.ts$/.test(file) && !file.endsWith('.d.ts') ? file : undefined;
}

/** Each file's imports as read from disk, kept while the file is unchanged. */
const onDisk = new Map();

function importsOnDisk(file) {
	const changed = fs.statSync(file).mtimeMs;
	const known = onDisk.get(file);
	if (known?.changed === changed) return known.imports;
	const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
	const imports = [...new Set(importedFiles.map((entry) => resolvedFile(entry.fileName, file)).filter(Boolean))];
	onDisk.set(file, { changed, imports });
	return imports;
}

/** The files from `start` that lead back to `target`, shortest first, or undefined when none does. */
function routeBack(start, target) {
	const seen = new Set([start]);
	const routes = [[start]];
	while (routes.length) {
		const route = routes.shift();
		for (const next of importsOnDisk(route[route.length - 1])) {
			if (next === target) return route;
			if (seen.has(next)) continue;
			seen.add(next);
			routes.push([...route, next]);
		}
	}
	return undefined;
}

const shown = (file) => path.relative(ROOT, file);

const noCycle = {
	meta: {
		type: 'problem',
		docs: { description: 'No import cycle, type-only imports and re-exports included' },
		messages: { cycle: 'Import cycle: {{route}}' },
		schema: [],
	},
	create(context) {
		const file = path.resolve(context.physicalFilename);
		const check = (node) => {
			if (node.source?.type !== 'Literal' || typeof node.source.value !== 'string') return;
			const target = resolvedFile(node.source.value, file);
			const route = target && (target === file ? [] : routeBack(target, file));
			if (route)
				context.report({ node, messageId: 'cycle', data: { route: [file, ...route, file].map(shown).join(' -> ') } });
		};
		return {
			ImportDeclaration: check,
			ExportNamedDeclaration: check,
			ExportAllDeclaration: check,
			ImportExpression: check,
		};
	},
};

export const cycles = { rules: { 'no-cycle': noCycle } };
