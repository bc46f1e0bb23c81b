/**
 * The scanner's log lines in Chinese (docs: server/library/README.md#events), the texts every scan event
 * carries. Lines the kikoeru dashboard already knows are reproduced literally; lines for kikoplay's own
 * behaviour (missing works, stopped roots, metadata queue) follow the same style. Each line's key and
 * parameters travel with it, so the terminal and the web dashboard can say it in their own language
 * (./en.ts, ./ja.ts).
 */
import type { ScanCounts } from '../scan-events.js';

export const MSG = {
  // discovery
  foundFolders: (n: number) => `共找到 ${n} 个音声文件夹.`,
  duplicates: (n: number) => `发现 ${n} 个重复的音声文件夹.`,
  duplicateHeader: (code: string) => `[${code}] 存在多个文件夹:`,
  duplicatePath: (abs: string) => `--> ${abs}`,
  duplicateChosen: (code: string, abs: string) => `[${code}] 使用文件夹: ${abs}`,
  cannotAccess: (p: string) => `! 无法访问 ${p}`,
  badName: (p: string) => `! 文件名无法解码，已跳过: ${p}`,
  linkOutside: (p: string) => `! 链接指向了媒体库文件夹之外，已跳过: ${p}`,
  rootError: (msg: string) => `在扫描根文件夹的过程中出错: ${msg}`,
  rootGone: (name: string, p: string) => `根文件夹 "${name}" (${p}) 无法访问: 文件夹不存在。已停止扫描此根文件夹，其中的作品与用户数据保持不变.`,
  rootNotFolder: (name: string, p: string) => `根文件夹 "${name}" (${p}) 无法访问: 不是文件夹。已停止扫描此根文件夹，其中的作品与用户数据保持不变.`,
  rootUnreachable: (name: string, p: string, why: string) => `根文件夹 "${name}" (${p}) 无法访问: ${why}。已停止扫描此根文件夹，其中的作品与用户数据保持不变.`,
  rootSuddenlyEmpty: (name: string, p: string, n: number) =>
    `根文件夹 "${name}" (${p}) 中没有找到任何音声文件夹，但数据库中有 ${n} 个作品位于此处。已停止扫描此根文件夹（可能未挂载），作品与用户数据保持不变.`,
  noRoots: '没有配置任何根文件夹，请先在 "媒体库" 中添加文件夹.',
  // per work
  newFolder: (abs: string) => `发现新文件夹: "${abs}"`,
  changedFolder: (abs: string) => `文件夹内容有变化，重新扫描: "${abs}"`,
  movedFolder: (from: string, to: string) => `作品文件夹已移动: "${from}" --> "${to}"`,
  returnedFolder: (abs: string) => `缺失的作品文件夹已恢复: "${abs}"`,
  hasLyric: (b: boolean) => `作品中是否有字幕：${b}`,
  probing: '扫描音频文件时长',
  probeFailed: (file: string, msg: string) => `无法读取音频时长 ${file}: ${msg}`,
  added: (n: number) => `添加成功! Added: ${n}`,
  addFailed: (n: number) => `添加失败! Failed: ${n}`,
  updated: (n: number) => `更新成功! Updated: ${n}`,
  workError: (msg: string) => `处理作品时出错: ${msg}`,
  localCover: (file: string) => `使用作品中的图片作为封面: ${file}`,
  // metadata
  scraping: '从 DLSite 抓取元数据...',
  scrapeOkAdd: '元数据抓取成功，准备添加到数据库...',
  scrapeSaved: '元数据成功添加到数据库.',
  scrapeFailed: '元数据获取失败',
  scrapeFailedWith: (err: string) => `元数据获取失败: ${err}`,
  scrapeNotFound: '在 DLsite 上找不到此作品，稍后会再次尝试.',
  metadataSaveFailed: (msg: string) => `元数据添加失败: ${msg}`,
  sourceUnreachable: (site: string, reason: string) => `${site} 无法连接 (${reason})，本次扫描不再请求`,
  metadataOffline: (n: number) => `连续 ${n} 个作品的元数据抓取失败（网络不可用?），本次扫描停止抓取元数据，剩余作品将在下次扫描时重试.`,
  metadataQueue: (n: number) => `共 ${n} 个作品等待抓取元数据.`,
  metadataSummary: (ok: number, failed: number, pending: number) => `元数据抓取: 成功 ${ok} 个，失败 ${failed} 个，待处理 ${pending} 个.`,
  metadataSkipped: '已跳过元数据抓取（离线模式）.',
  // covers
  coverDownload: '从 DLsite 下载封面...',
  coverOk: (file: string) => `封面 ${file} 下载成功.`,
  coverError: (file: string, msg: string) => `在下载封面 ${file} 过程中出错: ${msg}`,
  noDlsiteCover: (code: string) => `${code} 作品本身在DlSite上没有封面图片，无法抓取封面`,
  // cleanup (never deletes)
  cleanupStart: '检查本地不再存在的音声文件夹...',
  cleanupMarked: (n: number) => `${n} 个作品的文件夹已不存在，已标记为缺失（评价、播放历史与 AI 歌词均保留；可用 kikoplay scan --purge-missing 清除）.`,
  cleanupDone: '清理完成.',
  skipCleanup: '跳过清理“不存在的音声数据”',
  // refresh
  refreshStart: (n: number) => `共 ${n} 个作品. 开始刷新`,
  refreshOk: '元数据抓取成功，准备更新元数据...',
  refreshSaved: '元数据更新成功',
  refreshError: (err: string) => `在抓取元数据过程中出错: ${err}`,
  refreshDone: (u: number, f: number) => `完成元数据更新 ${u} 个，失败 ${f} 个.`,
  // files
  filesStart: '扫描本地文件开始',
  filesTotal: (n: number) => `总计 ${n} 个作品`,
  filesProgress: (i: number, n: number) => `扫描进度：${i}/${n}`,
  lyricChanged: (code: string) => `[${code}] 歌词状态发生改变`,
  filesError: (code: string, err: string) => `[${code}] 扫描歌词过程中发生错误：${err}`,
  workNotInDb: (code: string) => `作品 ${code} 不在数据库中`,
  workFolderMissing: (code: string, p: string) => `[${code}] 作品文件夹不存在: ${p}`,
  rootMissing: (alias: string) => `扫描作品文件失败，没有找到rootFolder: ${alias}`,
  workRootMissing: (code: string, alias: string) => `[${code}] 扫描作品文件失败，没有找到rootFolder: ${alias}`,
  // purge
  purgeStart: (n: number) => `共 ${n} 个缺失的作品，开始清除...`,
  purgeDone: (n: number) => `已清除 ${n} 个缺失的作品及其评价、播放历史与 AI 歌词.`,
  // kill
  killed: ' ! 终止扫描进程.',
  // finish
  finishedScan: (c: ScanCounts) => `扫描完成: 新增 ${c.added} 个，更新 ${c.updated} 个，跳过 ${c.skipped} 个，失败 ${c.failed} 个.`,
  finishedRefresh: (c: ScanCounts) => `扫描完成: 更新 ${c.updated} 个，失败 ${c.failed} 个.`,
  finishedFiles: (c: ScanCounts) => `扫描完成: 更新 ${c.updated} 个，失败 ${c.failed} 个，跳过 ${c.skipped} 个.`,
  finishedPurge: (n: number) => `清除完成: 删除 ${n} 个作品.`,
  cancelled: '扫描已取消.',
  fatal: (msg: string) => `扫描出错: ${msg}`,
} as const;
