import type { Logger } from 'pino';
import type { AiTasksService } from '../services/ai-tasks-service.js';

/**
 * Put TRASCRIPTING tasks whose worker has not reported (acquire/status/get/download) for
 * `aiTaskLeaseMinutes` back to PENDING, secret cleared. `at` defaults to the service's clock.
 * Returns how many tasks were re-queued.
 */
export async function requeueExpiredAiTasks(tasks: AiTasksService, logger?: Logger, at?: Date): Promise<number> {
  const n = await tasks.requeueExpired(at);
  if (n > 0) logger?.info({ requeued: n }, 'AI tasks re-queued: their workers stopped reporting');
  return n;
}

/**
 * Run {@link requeueExpiredAiTasks} every `intervalMs` (default one minute). The timer never keeps the
 * process alive; failures are logged and the next tick tries again. `acquire` also re-queues lazily, so
 * the timer only keeps the AI centre's view current.
 */
export function startAiLeaseJob(tasks: AiTasksService, logger: Logger, intervalMs = 60_000): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    requeueExpiredAiTasks(tasks, logger)
      .catch((err: unknown) => logger.warn({ err }, 'AI task lease check failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
