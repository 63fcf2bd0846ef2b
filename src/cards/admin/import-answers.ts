import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { IMPORT_PROBLEMS_SHOWN, ImportProblem } from './import-format';

/** `?dry_run=true`: the report of every problem, nothing written (200). */
export class ImportReport {
  @ApiProperty({ enum: [true] }) dry_run!: true;
  @ApiProperty({ type: 'integer' }) rows!: number;
  @ApiProperty({ type: 'integer' }) valid!: number;
  @ApiProperty({ type: [ImportProblem], description: 'the first problems (problem_count counts them all)' })
  problems!: ImportProblem[];
  @ApiProperty({ type: 'integer' }) problem_count!: number;
}

/** A real import: every row in, under one new batch (201). */
export class ImportDone {
  @ApiProperty({ enum: [false] }) dry_run!: false;
  @ApiProperty({ format: 'uuid' }) batch_id!: string;
  @ApiProperty({ type: 'integer' }) rows!: number;
  @ApiProperty({ type: 'integer' }) imported!: number;
}

export type ImportAnswer = ImportReport | ImportDone;

/** The problems an answer lists: the first IMPORT_PROBLEMS_SHOWN by line, and how many there are. */
export class ProblemLog {
  readonly shown: ImportProblem[] = [];
  count = 0;

  /** Problems of lines after every line added before (their order among themselves is free). */
  add(problems: ImportProblem[]): void {
    this.count += problems.length;
    if (this.shown.length >= IMPORT_PROBLEMS_SHOWN) return;
    const sorted = [...problems].sort((a, b) => a.line - b.line);
    this.shown.push(...sorted.slice(0, IMPORT_PROBLEMS_SHOWN - this.shown.length));
  }

  report(rows: number, valid: number) {
    return { rows, valid, problems: this.shown, problem_count: this.count };
  }
}

/** CARD_IMPORT_INVALID with the report of every problem. */
export function invalid(report: { rows: number; valid: number; problems: ImportProblem[]; problem_count: number }): ServiceError {
  return new ServiceError(ErrorCode.CARD_IMPORT_INVALID, undefined, { details: report });
}
