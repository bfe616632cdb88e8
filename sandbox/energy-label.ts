/** The DPE/GES label visual returned by `POST /products/{id}/dpeGes`: a PNG or an SVG. */
import { encodePng, Rgb } from './images';

export interface EnergyRating {
	dpeLetter: string;
	dpeValue: number | null;
	gesLetter: string;
	gesValue: number | null;
}

export interface LabelOptions {
	format: 'png' | 'svg';
	width: number;
	lang: 'fr' | 'en';
}

const LETTERS = 'ABCDEFG';
const DPE_COLOURS = ['#009C6D', '#52B153', '#78BD76', '#F4E70F', '#F0B50F', '#EB8235', '#D7221F'];
const GES_COLOURS = ['#A4DBF8', '#8CB4D3', '#7792B1', '#606F8F', '#4D5271', '#393551', '#281B35'];
const TITLES = {
	fr: { dpe: 'Consommation énergétique', ges: 'Émissions de GES' },
	en: { dpe: 'Energy performance', ges: 'Greenhouse gas emissions' },
};

/** The two scales side by side; each band grows with its letter and the rated band spans its column. */
export function renderEnergyLabel(rating: EnergyRating, options: LabelOptions): { contentType: string; bytes: Buffer } {
	const height = Math.round(options.width * 0.6);
	const columns = [
		{ letter: rating.dpeLetter, value: rating.dpeValue, colours: DPE_COLOURS, title: TITLES[options.lang].dpe },
		{ letter: rating.gesLetter, value: rating.gesValue, colours: GES_COLOURS, title: TITLES[options.lang].ges },
	];
	const columnWidth = options.width / 2;
	const bandHeight = height / LETTERS.length;
	const bandWidth = (letterIndex: number, rated: boolean) =>
		rated ? columnWidth - 8 : columnWidth * (0.35 + 0.07 * letterIndex);

	if (options.format === 'svg') {
		const bands = columns.flatMap((column, columnIndex) =>
			[...LETTERS].map((letter, index) => {
				const rated = letter === column.letter;
				const x = columnIndex * columnWidth + 4;
				const y = index * bandHeight;
				const label = rated && column.value !== null ? `${letter} ${column.value}` : letter;
				return (
					`<rect x="${x}" y="${y + 1}" width="${bandWidth(index, rated).toFixed(1)}" height="${(bandHeight - 2).toFixed(1)}" fill="${column.colours[index]}"${rated ? ' stroke="#000" stroke-width="2"' : ''}/>` +
					`<text x="${x + 6}" y="${(y + bandHeight * 0.7).toFixed(1)}" font-family="sans-serif" font-size="${(bandHeight * 0.6).toFixed(1)}" font-weight="${rated ? 'bold' : 'normal'}">${label}</text>`
				);
			}),
		);
		const title = columns.map((column) => `${column.title}: ${column.letter}`).join(', ');
		const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${options.width}" height="${height}" viewBox="0 0 ${options.width} ${height}" role="img"><title>${title}</title>${bands.join('')}</svg>`;
		return { contentType: 'image/svg+xml', bytes: Buffer.from(svg, 'utf8') };
	}

	const palettes = columns.map((column) => column.colours.map(hexToRgb));
	const white: Rgb = [255, 255, 255];
	const bytes = encodePng(options.width, height, (x, y) => {
		const columnIndex = x < columnWidth ? 0 : 1;
		const index = Math.min(Math.floor(y / bandHeight), LETTERS.length - 1);
		const rated = LETTERS[index] === columns[columnIndex].letter;
		const xInColumn = x - columnIndex * columnWidth - 4;
		const insideBand =
			xInColumn >= 0 && xInColumn < bandWidth(index, rated) && y % bandHeight >= 1 && y % bandHeight < bandHeight - 1;
		return insideBand ? palettes[columnIndex][index] : white;
	});
	return { contentType: 'image/png', bytes };
}

function hexToRgb(hex: string): Rgb {
	const value = parseInt(hex.slice(1), 16);
	return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}
