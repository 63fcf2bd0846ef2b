import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from '../../support/test-app';

/** information_schema's data_type for each column type the entities use. */
const DATA_TYPES: Record<string, string> = {
  uuid: 'uuid',
  varchar: 'character varying',
  char: 'character',
  text: 'text',
  integer: 'integer',
  int: 'integer',
  smallint: 'smallint',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamptz: 'timestamp with time zone',
  jsonb: 'jsonb',
  date: 'date',
};

interface SchemaColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  character_maximum_length: number | null;
  /** An array's element type with a leading underscore (`_text`). */
  udt_name: string;
}

/** udt_name of an array of each element type the entities use. */
const ARRAY_TYPES: Record<string, string> = { uuid: '_uuid', varchar: '_varchar', text: '_text', integer: '_int4' };

/**
 * Every entity against the schema the migrations made (the schema is never synchronised from the
 * entities): each column exists in its table, with the entity's type, length and nullability.
 * (An array's element length is not in information_schema: an array is checked by element type.)
 */
describe('entities match the migrated schema (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(() => t.close());

  it('has every entity column in its table, of the same type, length and nullability', async () => {
    const dataSource = t.app.get(DataSource);
    const rows = (await dataSource.query(
      `SELECT table_name, column_name, data_type, is_nullable, character_maximum_length, udt_name
       FROM information_schema.columns WHERE table_schema = current_schema()`,
    )) as SchemaColumn[];
    const schema = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, r]));
    const differences: string[] = [];
    for (const entity of dataSource.entityMetadatas) {
      for (const column of entity.columns) {
        const name = `${entity.tableName}.${column.databaseName}`;
        const found = schema.get(name);
        if (!found) {
          differences.push(`${name}: no such column`);
          continue;
        }
        const type = typeof column.type === 'string' ? column.type : (column.type as { name: string }).name.toLowerCase();
        const base = type === 'number' ? 'integer' : type === 'string' ? 'varchar' : type;
        if (column.isArray) {
          if (found.udt_name !== (ARRAY_TYPES[base] ?? base))
            differences.push(`${name}: ${found.udt_name} in the schema, an array of ${type} in the entity`);
        } else if (found.data_type !== (DATA_TYPES[base] ?? base))
          differences.push(`${name}: ${found.data_type} in the schema, ${type} in the entity`);
        if ((found.is_nullable === 'YES') !== column.isNullable)
          differences.push(`${name}: ${found.is_nullable === 'YES' ? 'nullable' : 'NOT NULL'} in the schema, not in the entity`);
        const length = column.length ? Number(column.length) : null;
        if (length !== null && !column.isArray && found.character_maximum_length !== length)
          differences.push(`${name}: length ${found.character_maximum_length} in the schema, ${length} in the entity`);
      }
    }
    expect(differences).toEqual([]);
  });
});
