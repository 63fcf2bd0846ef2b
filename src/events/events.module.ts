import { Global, Module } from '@nestjs/common';
import { DomainEvents } from './domain-events';

/** The domain-event seam (domain-events.ts), global so that every rule's service can emit. */
@Global()
@Module({ providers: [DomainEvents], exports: [DomainEvents] })
export class EventsModule {}
