/** The lines of an import's summary and progress, in the run's language (plain output and after the Ink view). */
import type { ImportProgress, ImportSummary } from '../../server/services/kikoeru-import/import-service.js';
import { NOT_A_FILE, type KikoeruImportRefused } from '../../server/services/kikoeru-import/source.js';
import { cliText, type CliCatalog } from '../i18n/index.js';
import { errorSentence } from '../../server/contract/error-text/index.js';
import type { ApiErrorCode } from '../../server/domain/error-codes.js';

/** How many skipped rows are listed one by one (the rest are counted by reason). */
const LISTED_SKIPS = 20;

export function importProgressLine(p: ImportProgress, t: CliCatalog = cliText()): string {
  const k = t.importKikoeru;
  return k.progress(k.phases[p.phase] ?? p.phase, p.done, p.total);
}

export function importSummaryLines(s: ImportSummary, t: CliCatalog = cliText()): string[] {
  const k = t.importKikoeru.summary;
  const reason = (r: string) => k.reasons[r] ?? r;
  const lines: string[] = [];
  if (s.dryRun) lines.push(k.dryRun);
  lines.push(k.source(s.source.version ?? '?', s.source.migrations, s.source.lastMigration));
  if (!s.source.config) lines.push(k.noConfig);
  lines.push(k.counts(k.labels.users, s.users));
  if (s.users.merged.length) lines.push(k.merged(s.users.merged.join(', ')));
  if (s.users.needPassword.length) lines.push(k.needPassword(s.users.needPassword.join(', ')));
  const r = s.roots;
  if (r.added.length + r.present.length + r.unreachable.length + r.refused.length + r.unknown.length) lines.push(k.rootsHeader);
  for (const x of r.added) lines.push(k.rootAdded(x.name, x.path));
  for (const x of r.present) if (x.name !== x.as) lines.push(k.rootPresent(x.name, x.as));
  for (const x of r.unreachable) lines.push(k.rootUnreachable(x.name, x.path, errorSentence({ code: x.code as ApiErrorCode }, x.problem, t.lang)));
  for (const x of r.refused) lines.push(k.rootRefused(x.name, x.path, errorSentence({ code: x.code as ApiErrorCode, params: x.params }, x.reason, t.lang)));
  for (const x of r.unknown) lines.push(k.rootUnknown(x.name, x.works));
  lines.push(k.counts(k.labels.works, s.works));
  lines.push(k.works(s.works.kept, s.works.missing, s.works.hidden));
  lines.push(k.counts(k.labels.reviews, s.reviews));
  lines.push(k.counts(k.labels.history, s.history));
  if (s.history.tracksMapped + s.history.tracksKept) lines.push(k.history(s.history.tracksMapped, s.history.tracksKept));
  lines.push(k.counts(k.labels.aiTasks, s.aiTasks));
  if (s.aiTasks.lyrics + s.aiTasks.lyricsMissing) lines.push(k.tasks(s.aiTasks.lyrics, s.aiTasks.lyricsMissing));
  if (s.covers.copied + s.covers.absent) lines.push(k.covers(s.covers.copied, s.covers.absent));
  const skipped = Object.entries(s.skippedCounts);
  if (skipped.length) {
    lines.push(k.skipped(skipped.reduce((a, [, n]) => a + (n ?? 0), 0)));
    for (const [why, n] of skipped) lines.push(k.skippedReason(reason(why), n ?? 0));
    for (const item of s.skipped.slice(0, LISTED_SKIPS)) lines.push(k.skippedItem(k.kinds[item.kind] ?? item.kind, item.key, reason(item.reason)));
  }
  return lines;
}

/** A refusal in the run's language. */
export function refusalText(err: KikoeruImportRefused, t: CliCatalog = cliText()): string {
  const r = t.importKikoeru.refused;
  const d = err.details;
  const s = (key: string) => String(d[key] ?? '');
  const n = (key: string) => Number(d[key] ?? 0);
  switch (err.reason) {
    case 'unreadable':
      // the reason in words (the refusal's own message is the server's Chinese)
      return `${r.unreadable(s('file'))}: ${s('code') === NOT_A_FILE ? r.notAFile : t.startup.fsReason(s('code') || 'EIO')}`;
    case 'not-sqlite':
      return r['not-sqlite'](s('file'));
    case 'not-kikoeru':
      return r['not-kikoeru'](s('file'), s('missing'));
    case 'old-schema':
      return r['old-schema'](n('migrations'), s('last'), n('expected'), s('key'));
    case 'newer-schema':
      return r['newer-schema'](n('migrations'), s('last'), n('expected'));
    case 'missing-columns':
      return r['missing-columns'](s('missing'));
    case 'bad-config':
      return r['bad-config'](s('file'));
    case 'scan-busy':
      return r['scan-busy'](n('pid'), s('kind'));
    case 'bad-folder':
      return r['bad-folder'](`--${s('field')}`, s('file'), r.folderProblems[s('code')] ?? err.message);
  }
}
