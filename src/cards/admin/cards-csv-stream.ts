import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { CardType } from '../types/card-type.entity';
import { cardsCsvHeader, cardsCsvRows, cardsExcelHeader, cardsExcelRows } from './cards-csv';

/** Cards per page of the CSV export (each page with its devices): one page holds the embedded database only briefly. */
const EXPORT_PAGE = 250;

/** What the export writes: its first text, each page's text, and the file's type and name. */
export interface ExportLayout {
  head: string;
  /** A page's text, from its cards and their devices, with the page's connection for any further read. */
  rows: (db: EntityManager, cards: Card[], devices: CardDevice[]) => Promise<string>;
  /** Whether the rows need the cards' devices. */
  devices: boolean;
  type: string;
  filename: string;
}

/** The default export: the columns the import reads back (cards-csv.ts). */
export const DATA_CSV: ExportLayout = {
  head: cardsCsvHeader(),
  rows: (_db, cards, devices) => Promise.resolve(cardsCsvRows(cards, devices)),
  devices: true,
  type: 'text/csv; charset=utf-8',
  filename: 'cards.csv',
};

/** The keys alone, one a line (CRLF, for Notepad too): a filtered list to paste into a shop or a message. */
export const CODES_TXT: ExportLayout = {
  head: '',
  rows: (_db, cards) => Promise.resolve(cards.map((c) => `${c.code}\r\n`).join('')),
  devices: false,
  type: 'text/plain; charset=utf-8',
  filename: 'cards.txt',
};

/** The spreadsheet export in the zone `timeZone` (cards-csv.ts): each page's type names read on that page's connection. */
export function excelCsv(timeZone: string): ExportLayout {
  return {
    head: cardsExcelHeader(timeZone),
    rows: async (db, cards, devices) => {
      const typeIds = [...new Set(cards.map((c) => c.cardTypeId).filter((id): id is number => id != null))];
      const types = typeIds.length ? await db.getRepository(CardType).find({ where: { id: In(typeIds) } }) : [];
      return cardsExcelRows(cards, devices, new Map(types.map((t) => [t.id, t.name])), timeZone);
    },
    devices: true,
    type: 'text/csv; charset=utf-8',
    filename: 'cards.csv',
  };
}

/** Runs one page's reads on a database connection of the caller's choice (ReplicaReads: the replica or the primary). */
export type PageReader = <T>(read: (db: EntityManager) => Promise<T>) => Promise<T>;

/**
 * Every card a query matches, oldest first, as CSV with its devices, streamed: read in pages of
 * EXPORT_PAGE cards by keyset over ids (`query(db)` gives a fresh query of cards aliased `c` each
 * time), each page written before the next is read, so neither the file nor one huge query is
 * ever held, and the loop turns between pages. Each page is read through `readPage`, which holds a
 * connection only for that page. `onError` hears a failure after the answer began.
 */
export function streamCardsCsv(
  readPage: PageReader,
  query: (db: EntityManager) => SelectQueryBuilder<Card>,
  devicesOf: (db: EntityManager, cardIds: number[]) => Promise<CardDevice[]>,
  onError: (error: unknown) => void,
  layout: ExportLayout = DATA_CSV,
): StreamableFile {
  const pages = async function* () {
    if (layout.head) yield layout.head;
    for (let after = 0; ;) {
      const { cards, text } = await readPage(async (db) => {
        const page = await query(db).andWhere('c.id > :after', { after }).orderBy('c.id', 'ASC').take(EXPORT_PAGE).getMany();
        if (!page.length) return { cards: page, text: '' };
        const devices = layout.devices
          ? await devicesOf(
              db,
              page.map((c) => c.id),
            )
          : [];
        return { cards: page, text: await layout.rows(db, page, devices) };
      });
      if (!cards.length) return;
      yield text;
      if (cards.length < EXPORT_PAGE) return;
      after = cards[cards.length - 1].id;
    }
  };
  const stream = Readable.from(pages(), { objectMode: false, highWaterMark: 1 });
  stream.on('error', onError);
  return new StreamableFile(stream, { type: layout.type, disposition: `attachment; filename="${layout.filename}"` });
}
