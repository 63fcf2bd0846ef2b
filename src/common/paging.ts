import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Keeps the row offset an ordinary integer (a page like 1e300 would reach SQL as `OFFSET 1e+302`). */
export const MAX_PAGE = 10_000_000;

/**
 * A query parameter read as a decimal integer: `0x10`, `1e1`, ` 5` or `5.0` stay strings and fail
 * @IsInt with a 400, where Number() would have read them as numbers.
 */
export const decimalInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,10}$/.test(value) ? Number(value) : value;

/** `page` (1-10,000,000) and `page_size` (1-100, default 20) of every admin list. */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  page_size = 20;

  get skip(): number {
    return (this.page - 1) * this.page_size;
  }
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export function pageOf<T>(items: T[], total: number, query: PageQuery): Page<T> {
  return { items, total, page: query.page, page_size: query.page_size };
}
