/**
 * A synthetic library for the browse benchmark: N works (default 100,000) over 5,000 circles,
 * 1,000 tags and 8,000 voice actors, ~5 tags and ~2 voice actors per work, everything Zipf-skewed
 * (a few circles, tags, voice actors and title words are everywhere, most are rare), deterministic
 * for a seed. Titles mix a Zipf-distributed vocabulary with rare three-kanji names, so the benchmark
 * has both common words and rare 3-character CJK strings to search for.
 */
import { v5 as uuidv5 } from 'uuid';
import { VA_NAMESPACE } from '../../server/domain/work-metadata.js';
import type { SeedFile, SeedLabel, SeedWork } from '../../test/helpers/seed.js';

export interface SynthOptions {
  works: number;
  circles: number;
  tags: number;
  vas: number;
  seed: number;
}

export const DEFAULT_SYNTH: SynthOptions = { works: 100_000, circles: 5_000, tags: 1_000, vas: 8_000, seed: 20240611 };

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sampler of ranks 0..n-1 with P(k) ∝ 1/(k+1)^s (inverse CDF by binary search). */
export function zipf(n: number, s: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    sum += 1 / Math.pow(k + 1, s);
    cdf[k] = sum;
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Title vocabulary, most common first (all ≥ 3 characters, the trigram minimum). */
export const VOCABULARY = [
  'お姉さん',
  '耳かき',
  '添い寝',
  'ささやき',
  'バイノーラル',
  'ASMR',
  '癒やし系',
  'おやすみ',
  'メイドさん',
  '幼なじみ',
  'ご奉仕',
  'お嬢様',
  '甘やかし',
  '妹ちゃん',
  '膝枕',
  'マッサージ',
  'ドS',
  '先輩と',
  '後輩の',
  '看護師',
  '催眠音声',
  'シスター',
  '天使の',
  '悪魔の',
  'サキュバス',
  '狐娘',
  '猫耳',
  '魔法少女',
  '女騎士',
  '吸血鬼',
  '温泉旅館',
  '夏祭り',
  '放課後',
  '図書館',
  '生徒会長',
  '保健室',
  '雨の日',
  '星空の',
  '月夜の',
  '森の奥',
  '喫茶店',
  'カフェ',
  'お兄ちゃん',
  'ご主人様',
  '旦那様',
  '花嫁',
  '新婚生活',
  '同棲生活',
  '秘密の',
  'いちゃらぶ',
  '囁き声',
  '炭酸泉',
  '焚き火',
  '雨音',
  '波の音',
  '心音',
  '吐息',
  '子守唄',
  '読み聞かせ',
  'ラジオ',
  '総集編',
  '完全版',
  'シリーズ',
  '第二章',
  '第三章',
  '後日談',
  '前日譚',
  '番外編',
  'おまけ付き',
  '特典付き',
  'ゲーム実況',
  'ボイスドラマ',
  '朗読劇',
  '音楽集',
  'サウンド',
  'ヒーリング',
  '睡眠導入',
  '安眠',
  '快眠',
  '集中力',
  'ロールプレイ',
  '異世界',
  '転生',
  'ダンジョン',
  'ギルド',
  '冒険者',
  '王女様',
  '王子様',
  '騎士団',
  '魔王城',
  '宇宙船',
  'アンドロイド',
  'ロボット',
  '未来都市',
  '電脳世界',
  'サイバー',
  '和風',
  '巫女さん',
  '神社の',
  '狐の嫁入り',
  '雪女',
  '人魚姫',
  '妖精さん',
  'エルフ',
  'ドラゴン',
  '獣人',
  '鬼の娘',
  'お稲荷様',
  '座敷わらし',
  '付喪神',
  'ツンデレ',
  'ヤンデレ',
  'クーデレ',
  'ダウナー',
  '元気っ子',
  '清楚系',
  'ギャル',
  'お嬢さま',
  '委員長',
  '転校生',
  '三姉妹',
  '双子の',
  '義妹',
  '義姉',
  '従姉妹',
  '叔母さん',
  '家庭教師',
  'メイド喫茶',
  '執事',
  '店長さん',
  'バニーガール',
  'ナース服',
  '水着',
  '浴衣',
  '制服',
  '着物',
  'ゴスロリ',
  'パジャマ',
  '寝起き',
  '朝ごはん',
];

const KANJI =
  '葵茜藍杏彩綾亜衣泉郁乙香楓佳桂華霞薫鏡京琴紗咲桜沙紫詩静雫朱珠純遥晴光瞳雛風舞真鞠瑞美雅雪柚優由百桃蘭凛涼玲怜蓮和若凪渚菫菜奈那乃望葉陽結夕梨璃凛律瑠麗朔颯翠澄蒼空宙月星夜朝昼夢音響奏歌詠詩恋愛想念祈願誓約絆縁運命';
const SURNAMES = [
  '佐藤',
  '鈴木',
  '高橋',
  '田中',
  '伊藤',
  '渡辺',
  '山本',
  '中村',
  '小林',
  '加藤',
  '吉田',
  '山田',
  '佐々木',
  '山口',
  '松本',
  '井上',
  '木村',
  '林',
  '斎藤',
  '清水',
  '山崎',
  '森',
  '池田',
  '橋本',
  '阿部',
  '石川',
  '山下',
  '中島',
  '石井',
  '小川',
  '前田',
  '岡田',
  '長谷川',
  '藤田',
  '後藤',
  '近藤',
  '村上',
  '遠藤',
  '青木',
  '坂本',
  '斉藤',
  '福田',
  '太田',
  '西村',
  '藤井',
  '金子',
  '岡本',
  '藤原',
  '中野',
  '三浦',
];
const GIVEN = [
  'あかり',
  'ゆい',
  'みく',
  'さくら',
  'ひより',
  'ことね',
  'まひろ',
  'りお',
  'かえで',
  'しずく',
  'つむぎ',
  'はるか',
  'ひなた',
  'みお',
  'ゆずき',
  'あおい',
  'かのん',
  'すず',
  'なぎさ',
  'ほのか',
];
const GENRES = [
  '耳かき',
  '添い寝',
  '癒し',
  'ささやき',
  'バイノーラル/ダミヘ',
  'ASMR',
  '日常/生活',
  'ファンタジー',
  '恋愛',
  '純愛',
  'ボイスドラマ',
  '催眠',
  'ラブラブ/あまあま',
  '萌え',
  'シリアス',
  'コメディ',
  'ほのぼの',
  '百合',
  '学園もの',
  'メイド',
];
const PRICES = [110, 220, 330, 440, 550, 660, 770, 880, 990, 1100, 1320, 1540, 1650, 1980, 2200];

export interface SynthLibrary {
  works: SeedWork[];
  /** Rare 3-kanji strings that occur in some titles (for the rare-search row). */
  rareStrings: string[];
  circles: SeedLabel<number>[];
  tags: SeedLabel<number>[];
  vas: SeedLabel<string>[];
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function dateBetween(random: () => number, fromYear: number, toYear: number): string {
  const start = Date.UTC(fromYear, 0, 1);
  const end = Date.UTC(toYear, 11, 31);
  return new Date(start + Math.floor(random() * (end - start))).toISOString().slice(0, 10);
}

/** A UTC 'YYYY-MM-DD HH:MM:SS' time `ms` after another (to the second). */
function laterBy(time: string, ms: number): string {
  return new Date(Date.parse(`${time.replace(' ', 'T')}Z`) + Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

function files(random: () => number, code: string): SeedFile[] {
  const out: SeedFile[] = [];
  const tracks = 3 + Math.floor(random() * 6);
  const mtime = 1_600_000_000_000 + Math.floor(random() * 1e11);
  for (let i = 1; i <= tracks; i++) {
    const duration = Math.round((60 + random() * 1500) * 1000) / 1000;
    out.push({ path: `mp3/${pad(i, 2)}_トラック${i}.mp3`, duration, size: Math.round(duration * 40_000), mtimeMs: mtime });
    if (random() < 0.5) out.push({ path: `wav/SEなし/${pad(i, 2)}_トラック${i}.wav`, duration, size: Math.round(duration * 176_400), mtimeMs: mtime });
  }
  if (random() < 0.3) out.push({ path: `mp3/${pad(1, 2)}_トラック1.lrc`, size: 2000, mtimeMs: mtime });
  out.push({ path: 'cover.jpg', size: 150_000, mtimeMs: mtime }, { path: `${code}_readme.txt`, size: 1200, mtimeMs: mtime });
  return out;
}

export function synthesize(opts: SynthOptions = DEFAULT_SYNTH): SynthLibrary {
  const random = rng(opts.seed);
  // a stream of its own, so adding it left every other generated value as it was
  const changes = rng(opts.seed ^ 0x5bd1e995);
  const circles: SeedLabel<number>[] = Array.from({ length: opts.circles }, (_, i) => ({
    id: 10000 + i,
    name: `${SURNAMES[i % SURNAMES.length]}${KANJI[(i * 7) % KANJI.length]}${KANJI[(i * 13 + 5) % KANJI.length]}工房${i}`,
  }));
  const tags: SeedLabel<number>[] = Array.from({ length: opts.tags }, (_, i) => ({ id: 1 + i, name: i < GENRES.length ? GENRES[i] : `ジャンル${GENRES[i % GENRES.length]}${i}` }));
  const vas: SeedLabel<string>[] = Array.from({ length: opts.vas }, (_, i) => {
    const name = `${SURNAMES[i % SURNAMES.length]}${GIVEN[Math.floor(i / SURNAMES.length) % GIVEN.length]}${i >= SURNAMES.length * GIVEN.length ? Math.floor(i / (SURNAMES.length * GIVEN.length)) + 1 : ''}`;
    return { id: uuidv5(name, VA_NAMESPACE), name };
  });
  const pickCircle = zipf(circles.length, 1.0, random);
  const pickTag = zipf(tags.length, 1.0, random);
  const pickVa = zipf(vas.length, 1.0, random);
  const pickWord = zipf(VOCABULARY.length, 1.0, random);
  const distinct = <T>(n: number, pick: () => number, list: T[]): T[] => {
    const seen = new Set<number>();
    for (let guard = 0; seen.size < n && guard < n * 20; guard++) seen.add(pick());
    return [...seen].map((i) => list[i]);
  };

  const works: SeedWork[] = [];
  const rare = new Set<string>();
  for (let i = 0; i < opts.works; i++) {
    const id = i % 10 === 9 ? 1_000_000 + i * 7 : 100_000 + i * 3; // RJ 6- and 8-digit codes
    const words = distinct(2 + Math.floor(random() * 3), pickWord, VOCABULARY);
    const name = KANJI[Math.floor(random() * KANJI.length)] + KANJI[Math.floor(random() * KANJI.length)] + KANJI[Math.floor(random() * KANJI.length)];
    if (rare.size < 5000 && random() < 0.05) rare.add(name);
    const title = `【${words[0]}】${name}と${words.slice(1).join('・')} ～第${1 + Math.floor(random() * 12)}話～`;
    const workTags = distinct(3 + Math.floor(random() * 5), pickTag, tags);
    const workVas = distinct(1 + Math.floor(random() * 3), pickVa, vas);
    const rateCount = Math.floor(Math.pow(random(), 3) * 3000);
    const dl = Math.floor(Math.pow(random(), 4) * 100_000);
    const release = dateBetween(random, 2010, 2025);
    const code = id >= 1_000_000 ? `RJ${pad(id, 8)}` : `RJ${pad(id, 6)}`;
    works.push({
      id,
      title,
      circle: circles[pickCircle()],
      tags: workTags,
      vas: workVas,
      nsfw: random() < 0.85,
      release: random() < 0.01 ? '' : release,
      dl_count: dl,
      price: PRICES[Math.floor(random() * PRICES.length)],
      review_count: Math.floor(rateCount / 20),
      rate_count: rateCount,
      rate_average_2dp: rateCount ? Math.round((3 + random() * 2) * 100) / 100 : 0,
      rate_count_detail: rateCount ? [1, 2, 3, 4, 5].map((p) => ({ review_point: p, count: Math.floor((rateCount * p * p) / 55), ratio: Math.round((p * p * 100) / 55) })) : null,
      rank: random() < 0.1 ? [{ term: 'day', category: 'voice', rank: 1 + Math.floor(random() * 100), rank_date: release }] : null,
      has_local_lyric: random() < 0.3,
      has_ai_lyric: random() < 0.1,
      missing: random() < 0.01,
      created_at: `${dateBetween(random, 2022, 2025)} ${pad(Math.floor(random() * 24), 2)}:${pad(Math.floor(random() * 60), 2)}:00`,
      dir: `${code} ${name}`,
      root_folder: 'bench',
      files: files(random, code),
    });
    // 40 % changed since they were added (files or metadata), up to a year later
    const work = works[works.length - 1];
    work.updated_at = changes() < 0.4 ? laterBy(work.created_at!, changes() * 365 * 86_400_000) : work.created_at;
  }
  return { works, rareStrings: [...rare], circles, tags, vas };
}
