/**
 * The AI lyric module other screens use (the work detail's per-file badges, the player's AI lyrics):
 * the queue calls, the work's tasks with 10 s polling, the status badge and the file-name helpers.
 */
export { AI_TASKS_KEY, createAiTask, deleteAiTasks, fetchAiLrc, fetchAiTasks, fetchWorkAiTasks, retryAiTasks, type AiTask, type AiTaskFilter, type AiTaskPage } from './api.js';
export { AI_STATUS_COLOR, AiStatusBadge } from './AiStatusBadge.js';
export { retryable, statusOf, taskFile, workerProgress, type TaskFile } from './task-info.js';
export { WORK_AI_POLL_MS, aiStatusFor, useWorkAiTasks, workAiTasksKey } from './use-work-ai-tasks.js';
