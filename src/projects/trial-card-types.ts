/**
 * What a project's trial setting (decisions §21) reads of a card type: whether it is one of the
 * project's and enabled. Projects name it and the global TrialCardTypesModule (cards/types)
 * provides it, so projects never import cards (which sit above them).
 */
export abstract class TrialCardTypes {
  /** The type if it is this project's (another project's is not found), or null. */
  abstract find(projectId: string, typeId: number): Promise<{ enabled: boolean } | null>;
}
