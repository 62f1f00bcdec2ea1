/**
 * Splits one host's events by document, so several documents can convert on one host at once
 * without taking each other's events. Events for no document ('ready') go to the host's own queue;
 * the host's exit reaches every queue.
 */

import type { HostEvent } from '../../../shared/protocol.js';
import { HostEventQueue } from './host-event-queue.js';
import type { HostProcess } from './host-process.js';

type EventListener = (event: HostEvent) => void;
type ExitListener = (description: string) => void;

interface Route {
  queue: HostEventQueue;
  event?: EventListener;
  exit?: ExitListener;
}

export class HostEventRoutes {
  readonly host: HostEventQueue;
  private readonly routes = new Map<string, Route>();
  private hostRoute: Omit<Route, 'queue'> = {};
  private exitDescription: string | undefined;

  constructor(process: Pick<HostProcess, 'onEvent' | 'onExit'>) {
    process.onEvent((event) => {
      const route = 'docId' in event && event.docId !== undefined ? this.routes.get(event.docId) : this.hostRoute;
      // an event for a document no longer followed (closed, or reopened elsewhere) has no reader
      route?.event?.(event);
    });
    process.onExit((description) => {
      this.exitDescription = description;
      this.hostRoute.exit?.(description);
      for (const route of this.routes.values()) route.exit?.(description);
    });
    this.host = new HostEventQueue(this.source(this.hostRoute));
  }

  /** The document's queue, made on first use; events that came before it was made are not kept. */
  document(docId: string): HostEventQueue {
    const known = this.routes.get(docId);
    if (known) return known.queue;
    const route: Partial<Route> = {};
    route.queue = new HostEventQueue(this.source(route));
    this.routes.set(docId, route as Route);
    return route.queue;
  }

  forget(docId: string): void {
    this.routes.delete(docId);
  }

  private source(route: Omit<Route, 'queue'>): Pick<HostProcess, 'onEvent' | 'onExit'> {
    return {
      onEvent: (listener) => (route.event = listener),
      onExit: (listener) => {
        if (this.exitDescription !== undefined) listener(this.exitDescription);
        else route.exit = listener;
      },
    };
  }
}
