import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { cardsCsvHeader, cardsCsvRows } from './cards-csv';

/** Cards per page of the CSV export (each page with its devices): one page holds the embedded database only briefly. */
const EXPORT_PAGE = 250;

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
): StreamableFile {
  const pages = async function* () {
    yield cardsCsvHeader();
    for (let after = 0; ;) {
      const { cards, devices } = await readPage(async (db) => {
        const page = await query(db).andWhere('c.id > :after', { after }).orderBy('c.id', 'ASC').take(EXPORT_PAGE).getMany();
        return {
          cards: page,
          devices: page.length
            ? await devicesOf(
                db,
                page.map((c) => c.id),
              )
            : [],
        };
      });
      if (!cards.length) return;
      yield cardsCsvRows(cards, devices);
      if (cards.length < EXPORT_PAGE) return;
      after = cards[cards.length - 1].id;
    }
  };
  const stream = Readable.from(pages(), { objectMode: false, highWaterMark: 1 });
  stream.on('error', onError);
  return new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="cards.csv"' });
}
