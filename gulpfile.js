const { rmSync } = require('fs');
const { src, dest, parallel } = require('gulp');

/** Icons and codex files are not compiled by tsc; n8n reads them from dist next to the code. */
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

function copyNodeAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json']).pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(copyIcons, copyNodeAssets);

/** tsc never deletes what it no longer writes: a stale `x.js` would shadow a folder `x/` that replaced it. */
exports['clean:dist'] = async () => rmSync('dist', { recursive: true, force: true });
exports['clean:build'] = async () => rmSync('build', { recursive: true, force: true });
