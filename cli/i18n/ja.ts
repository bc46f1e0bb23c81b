/** The terminal's Japanese catalogue (the shape of cli/i18n/en.ts). */
import type { CliCatalog } from './en.js';
import { scanMessages } from '../../server/contract/scan-text/ja.js';

const WORKER_HELP = `
しくみ:
  worker はサーバーの AI 歌詞キューから最も古い待機中のタスクを取り出し、音声をダウンロードして、
  OpenAI 互換の /v1/audio/transcriptions サービス（OpenAI、whisper.cpp server、faster-whisper
  サーバー、LocalAI）で文字起こしし、進捗を報告して（AI 歌詞センターに表示）、歌詞を LRC で返します:
  区間ごとに "[MM:SS.CC] テキスト" の 1 行です。--translate-to を付けると、各行の後に同じタイムスタンプで
  訳文が続きます（OpenAI 互換の /v1/chat/completions）。

長い音声:
  --max-upload-mb と --max-chunk-minutes に収まるファイルはそのままアップロードします。それより大きい・
  長いファイルは同梱の ffprobe（ffmpeg は不要）で 16 kHz モノラルにデコードし、最も静かな箇所で両方の
  制限に収まるチャンクに分け、WAV チャンクとしてアップロードします（16 kHz モノラル WAV は 1 分あたり
  1.9 MB なので、既定の 24 MB でチャンクあたり約 13 分）。タイムスタンプはトラック全体の位置に戻します。
  ffprobe がデコードできる形式ならどれでも使えます（mp3、m4a、flac、ogg、opus、wav、webm、mp4 …）。
  --wav は常に 16 kHz WAV を送ります（WAV しか読めないサービス向け。例: --convert なしの whisper.cpp）。

認証情報:
  --token には "kikoplay worker-token create NAME" で作った worker トークンを指定します（環境変数
  KIKOPLAY_WORKER_TOKEN）。worker 用のエンドポイントにしかアクセスできません。または --user/--password
  でユーザー（ゲスト以外）としてログインします（環境変数 KIKOPLAY_WORKER_PASSWORD）。ログインが
  切れると worker が自分でログインし直します。
  文字起こし API のキーは環境変数 OPENAI_API_KEY、API のベース URL は OPENAI_BASE_URL からも取れます。

堅牢性:
  処理中のタスクは --state-dir に保存され、再起動後に再開します（終わったチャンクは再度文字起こし
  しません）。ネットワークエラーはバックオフで再試行します（1 秒から倍々で最大 1 分）。Ctrl-C は
  すぐに止まり、何も完了させません: タスクは次の起動で再開するか、サーバーのリース
  （aiTaskLeaseMinutes）が切れるとキューに戻ります。長いリクエストの間は --heartbeat 秒ごとの
  ハートビートでリースを保ちます。

例:
  kikoplay worker --server http://nas:8888 --token kpw_... --api-key sk-... --language ja
  kikoplay worker --server http://nas:8888 --user worker1 --password *** \\
      --api-base http://127.0.0.1:8080 --model large-v3 --translate-to zh \\
      --translate-api-base http://127.0.0.1:11434 --translate-model qwen2.5 --glossary terms.txt
`;

export const ja: CliCatalog = {
  lang: 'ja',
  commander: {
    usage: '使い方:',
    options: 'オプション:',
    commands: 'コマンド:',
    arguments: '引数:',
    globalOptions: 'グローバルオプション:',
    optionsWord: '[オプション]',
    commandWord: '[コマンド]',
    defaultWord: '既定:',
    help: 'コマンドのヘルプを表示',
    version: 'バージョンを表示',
    afterError: '(使い方は --help で表示できます)',
    error: 'エラー:',
    unknownCommand: (name) => `不明なコマンド '${name}'`,
    unknownOption: (flag) => `不明なオプション '${flag}'`,
    missingArgument: (name) => `必須の引数 '${name}' がありません`,
    optionMissingArgument: (flags) => `オプション '${flags}' の値がありません`,
    requiredOption: (flags) => `必須のオプション '${flags}' が指定されていません`,
    tooManyArguments: (expected, got) => `引数が多すぎます。${expected} 個のところ ${got} 個あります。`,
    didYouMean: (word) => `(${word} のことですか?)`,
  },
  help: {
    program: '音声作品・ドラマ作品のためのセルフホスト型ライブラリサーバーと Web プレイヤー',
    dataDir: 'データディレクトリ（環境変数 KIKOPLAY_DATA_DIR、既定は ~/.kikoplay）',
    lang: 'ターミナルの言語: en、ja、zh-CN（環境変数 KIKOPLAY_LANG、次に LC_ALL / LC_MESSAGES / LANG）',
    logFormat: 'ログの形式: pretty（読みやすい 1 行）または json（環境変数 KIKOPLAY_LOG_FORMAT。既定はターミナルなら pretty、それ以外は json）',
    serve: {
      description: 'kikoplay サーバーを起動する（API、Web アプリ、定期スキャン）',
      port: '待ち受けるポート（既定 8888、環境変数 PORT）',
      host: 'バインドするアドレス（既定はすべてのインターフェース。blockRemoteConnection がオンなら 127.0.0.1）',
      noAuth: '認証をオフにする: すべての訪問者が管理者として操作できます',
    },
    scan: {
      description: 'ライブラリフォルダーの作品をスキャンする（ターミナルでは画面表示、それ以外はテキスト行か --json）。終了コード 0 はすべて成功、1 は一部の作品が失敗、2 は致命的エラー',
      json: 'イベントを 1 行に 1 つの JSON で出力',
      full: '変更がなくてもすべての作品を再スキャン',
      files: 'すべての作品のファイル（長さ、字幕の有無）を再スキャン',
      refreshMetadata: 'すべての作品のメタデータを取得し直す（--work と一緒なら、その作品だけ）',
      work: '1 作品をスキャン。例: RJ123456',
      offline: 'ローカルファイルだけを登録し、メタデータは取得しない',
      purgeMissing: 'フォルダーがなくなった作品を、レビュー、再生履歴、AI 歌詞とともに削除',
    },
    user: {
      description: 'ユーザーアカウントを管理する（ターミナルでサブコマンドなしなら対話式の管理画面）',
      list: 'ユーザーとロールの一覧',
      json: 'JSON で出力',
      add: 'ユーザーを作成',
      addPassword: 'パスワード（省略するとターミナルで入力を求めます）',
      addRole: (roles) => `${roles} のいずれか`,
      passwd: 'ユーザーのパスワードを変更（既存のログインは無効になります）',
      passwdPassword: '新しいパスワード（省略するとターミナルで入力を求めます）',
      role: (roles) => `ユーザーのロールを変更（${roles}）`,
      delete: 'ユーザーを、レビューと再生履歴とともに削除',
    },
    config: {
      description: '設定を表示・変更する（<data-dir>/config.json）',
      get: 'キーの有効な値を表示。キーを省略するとすべて JSON で表示',
      set: 'キーを設定。VALUE は JSON として解釈できれば JSON として扱います（例: 20、true、\'[{"name":"lib","path":"/srv"}]\'）',
      unset: 'config.json からキーを削除し、既定値に戻す',
      validate: 'config.json と KIKOPLAY_* 環境変数を検査。無効なら終了コード 1',
      path: 'config.json のパスを表示',
    },
    demo: {
      description: '再生できる小さなデモライブラリをデータディレクトリに書き出し、ルートフォルダーとして登録してスキャンする',
      noScan: '書き出しと登録だけ行う',
    },
    workerToken: {
      description: 'AI 文字起こし worker 用のトークンを管理する（worker 用のエンドポイントにしかアクセスできません）',
      create: 'worker トークンを作成し、一度だけ表示（保存されるのはハッシュだけ）',
      list: 'worker トークンの一覧（名前、作成日時、最終使用。トークン自体は表示しません）',
      revoke: 'worker トークンをすぐに失効させる（実行中のサーバーも直ちに受け付けなくなります）',
      json: 'JSON で出力',
    },
    worker: {
      description: 'kikoplay サーバーに接続する AI 歌詞文字起こし worker を実行する',
      server: 'kikoplay サーバーの URL。例: http://192.168.1.10:8888',
      token: 'worker トークン（環境変数 KIKOPLAY_WORKER_TOKEN）',
      user: 'トークンの代わりにこのユーザーでログイン',
      password: '--user のパスワード（環境変数 KIKOPLAY_WORKER_PASSWORD）',
      name: 'AI 歌詞センターに表示する worker 名（既定: ホスト名）',
      engine: '文字起こしエンジン: openai',
      apiBase: 'OpenAI 互換サービス（環境変数 OPENAI_BASE_URL、既定 https://api.openai.com）',
      apiKey: 'サービスの API キー（環境変数 OPENAI_API_KEY）',
      model: '文字起こしモデル',
      language: '音声の言語（ISO 639-1。"" で自動検出）',
      prompt: '文字起こしのプロンプト（人名、文体）',
      translateTo: '各行をこの言語（例: zh）にも翻訳し、二か国語の LRC にする',
      translateApiBase: '翻訳用の OpenAI 互換チャットサービス（既定: --api-base）',
      translateApiKey: '翻訳用の API キー（既定: --api-key）',
      translateModel: '翻訳用のチャットモデル',
      glossary: '翻訳用の用語集: 1 行に 1 つ "用語=訳語"',
      stateDir: '処理中のタスク、その音声、ログイン情報の保存先（既定 ~/.kikoplay-worker）',
      poll: 'キューが空のときの確認間隔（秒）',
      once: 'タスクを最大 1 つ処理して終了（キューが空なら何もしない）',
      maxUploadMb: '文字起こしサービスが受け付ける最大アップロードサイズ',
      maxChunkMinutes: '1 リクエストあたりの最長の音声',
      wav: '常に 16 kHz モノラル WAV でアップロード',
      heartbeat: 'リクエスト中の進捗/リースのハートビート間隔',
      quiet: '警告とエラーだけを記録',
      after: WORKER_HELP,
    },
  },
  errors: {
    unknownLang: (value, langs) => `--lang の言語 "${value}" は使えません（${langs} のいずれか）`,
    unknownConfigKey: (key) => `設定キー "${key}" はありません（一覧は \`kikoplay config get\`）`,
    configUnchanged: (why) => `${why}（config.json は変更していません）`,
    badPort: (value) => `--port にはポート番号（0-65535）を指定してください。指定値: "${value}"`,
    portInUse: (port, host) => `ポート ${port} は ${host} で既に使われています。--port N（または環境変数 PORT）で別のポートを指定してください`,
    badLogFormat: (value) => `--log-format の形式 "${value}" は使えません（pretty または json）`,
    noAuthInProduction: 'production がオンのときは --no-auth を使えません',
    passwordRequired: 'ターミナル以外では --password が必要です',
    passwordMismatch: 'パスワードが一致しません',
    cancelled: 'キャンセルしました',
    flagsConflict: (flags) => `これらのオプションは同時に使えません: ${flags}`,
    badWorkCode: (value) => `--work には RJ123456、BJ123456、VJ12345678 のような作品番号が必要です。指定値: "${value}"`,
    refreshOffline: '--refresh-metadata は --offline と一緒に使えません',
    outputClosed: '出力が閉じられたため、スキャンを中止しました',
    scanCancelled: 'スキャンをキャンセルしました',
    rootsStopped: (roots) => `スキャンできなかったルートフォルダー: ${roots}`,
    worksFailed: (n) => `${n} 件の作品の処理に失敗しました`,
    metadataFailed: (n) => `${n} 件の作品のメタデータを取得できませんでした`,
    demoAliasTaken: (alias, where) => `"${alias}" という名前のルートフォルダーがすでに ${where} を指しています。先に削除してください（kikoplay config set rootFolders ...）`,
  },
  configFile: {
    configInvalidIn: (file, why) => `${file} の設定が無効です: ${why}`,
    configInvalid: (why) => `設定が無効です: ${why}`,
    envInvalid: (why) => `環境変数による設定が無効です: ${why}`,
    notJson: (file, why) => `${file} は正しい JSON ではありません: ${why}`,
    notObject: (file) => `${file} には JSON オブジェクトが必要です`,
  },
  /** The AI worker's log lines and the errors that stop it (server/worker/messages.ts). */
  worker: {
    warning: '警告',
    error: 'エラー',

    connected: (name, server) => `ワーカー "${name}" が ${server} に接続しました`,
    forgetTask: (id, server) => `別のサーバー (${server}) のタスク ${id} は破棄します`,
    resuming: (id) => `タスク ${id} を再開します`,
    queueEmpty: (seconds) => `キューは空です。${seconds} 秒ごとに確認します`,
    acquired: (id) => `タスク ${id} を取得しました`,
    retrying: (step, why, seconds) => `${step}: ${why}。${seconds} 秒後に再試行します`,
    gaveUp: (why, attempts) => `${why}（${attempts} 回試して中止しました）`,

    progress: (id, text) => `タスク ${id}: ${text}`,
    done: (id) => `タスク ${id}: 完了`,
    failed: (id, why) => `タスク ${id}: 失敗: ${why}`,
    dropped: (id) => `タスク ${id}: サーバーが取り戻したため破棄しました`,
    notTaken: (id) => `タスク ${id}: サーバーが結果を受け取りませんでした（もう保持していません）`,
    failureNotReported: (id, why) => `タスク ${id}: 失敗を報告できませんでした: ${why}`,
    translationFailed: (id, why) => `タスク ${id}: 翻訳に失敗したため、文字起こしのみ送信します: ${why}`,
    noLongerOurs: (id) => `タスク ${id}: サーバー上でこのワーカーの担当ではなくなったため破棄します`,
    heartbeatFailed: (id, why) => `タスク ${id}: ハートビートに失敗しました: ${why}`,

    unreachable: (server) => `サーバー ${server} に接続できません`,
    loggedIn: (server, user) => `${server} に ${user} としてログインしました`,
    loggingInAgain: 'サーバーが 401 を返しました。再ログインします',
    tokenRefused: 'サーバーがトークンを拒否しました（取り消し済みか期限切れ）。新しい --token か --user/--password を指定してください',
    loginWithoutToken: 'ログインの応答にトークンがありません',
    loginRefused: (user, status, why) => `${user} としてのログインが拒否されました (${status}): ${why}`,
    needsLogin: 'サーバーにはログインが必要です。--token か --user/--password を指定してください',
    meAnswered: (status, why) => `GET /api/auth/me にサーバーが ${status} を返しました: ${why}`,
    newLoginRefused: (why) => `再ログインも拒否されました: ${why}`,
    notAllowed: (why) => `このアカウントはタスクを実行できません (403): ${why}`,
    answered: (step, status, why) => `${step} に ${status} が返されました: ${why}`,
    unexpectedBody: (step, body) => `${step} の応答が想定外の内容です: ${body}`,
    apiKeyRefused: (status, why) => `文字起こしサービスが ${status} を返しました: ${why}（--api-key を確認してください）`,

    serverRequired: '--server URL が必要です（kikoplay サーバー。例: http://192.168.1.10:8888）',
    notHttpUrl: (flag, value) => `${flag} には http(s) の URL を指定してください（指定値: "${value}"）`,
    notNumber: (flag, min, max, value) => `${flag} には ${min} から ${max} までの数値を指定してください（指定値: "${value}"）`,
    tokenOrUser: '--token と --user/--password はどちらか一方だけ指定してください',
    userNeedsPassword: '--user には --password（または環境変数 KIKOPLAY_WORKER_PASSWORD）が必要です',
    passwordNeedsUser: '--password には --user が必要です',
    unknownEngine: (engine) => `不明な --engine "${engine}" です（使用可能: openai）`,
    badName: '--name は 1〜100 文字にしてください',
    translateToEmpty: '--translate-to には言語を指定してください（例: zh）',
    translateNeedsModel: '--translate-to には --translate-model（チャットモデル。例: gpt-4o-mini）が必要です',
    glossaryUnreadable: (file, why) => `--glossary ${file} を読み込めません: ${why}`,
    glossaryInvalid: (file, why) => `--glossary ${file}: ${why}`,
    translateOptionsNeedTo: '--translate-model、--translate-api-base、--translate-api-key、--glossary には --translate-to が必要です',
  },
  messages: {
    promptPassword: 'パスワード',
    promptNewPassword: '新しいパスワード',
    promptRepeat: 'もう一度',
    userCreated: (role, name) => `${role === 'admin' ? '管理者' : role === 'guest' ? 'ゲスト' : 'ユーザー'} ${name} を作成しました`,
    passwordChanged: (name) => `${name} のパスワードを変更しました`,
    roleChanged: (name, role) => `${name} のロールを ${role} に変更しました`,
    usersDeleted: (n) => `${n} 人のユーザーを削除しました`,
    configReset: (key) => `${key} を既定値に戻しました`,
    configOk: (file) => `${file}: OK`,
    demoWritten: (n, dir, alias) => `デモライブラリ: ${dir} に ${n} 作品（ルートフォルダー "${alias}"）`,
    workMemo: (code, files, seconds, lyric) => `${code}: 音声ファイル ${files} 個、合計 ${seconds} 秒、字幕: ${lyric ? 'あり' : 'なし'}`,
    listening: (url, dataDir, auth) => `kikoplay は ${url} で待ち受けています（データディレクトリ ${dataDir}、認証${auth ? 'オン' : 'オフ'}）`,
    reachableAt: '接続先:',
    firstStart: {
      title: 'kikoplay: 初回起動',
      user: '管理者ユーザー:  ',
      password: '管理者パスワード:',
      saved: (file) => `（${file} にも保存しました。ログイン後に変更してください）`,
    },
    noAuthWarning: {
      title: '警告: 認証がオフです',
      where: (where) => `kikoplay は認証オフで${where}で待ち受けています:`,
      address: (host) => `アドレス ${host} `,
      allInterfaces: 'すべてのネットワークインターフェース',
      lines: [
        'このポートに届く人は誰でも管理者として操作できます。ライブラリの',
        '閲覧、設定の変更、フォルダーの追加、ユーザーの削除も可能です。',
        '--host 127.0.0.1（または blockRemoteConnection）を使うか、認証をオンにしてください。',
      ],
    },
    workerTokenCreated: (name) => `worker トークン "${name}" を作成しました。表示されるのは今回だけです。今すぐ保存してください。`,
    workerTokenUse: '使い方: kikoplay worker --server URL --token <トークン>   （または環境変数 KIKOPLAY_WORKER_TOKEN）',
    workerTokenRevoked: (name) => `worker トークン "${name}" を失効させました`,
    noWorkerTokens: 'worker トークンはありません',
    workerStopping: (signal) => `${signal}: 停止しています（もう一度 Ctrl-C ですぐに終了）。処理中のタスクは次回の起動に引き継ぎます`,
    workerStopped: (done, failed, lost, bySignal) => `worker を停止しました: 完了 ${done} 件、失敗 ${failed} 件、返却 ${lost} 件${bySignal ? '（シグナルで停止）' : ''}`,
  },
  table: {
    name: '名前',
    role: 'ロール',
    created: '作成日時',
    status: '状態',
    lastUsed: '最終使用',
    revoked: '失効',
    active: '有効',
    never: 'なし',
  },
  scan: {
    kinds: { scan: 'ライブラリのスキャン', refresh: 'メタデータの更新', files: 'ファイルの再スキャン', work: '1 作品のスキャン', purge: '見つからない作品の削除' },
    phases: {
      discover: 'フォルダーを検索中',
      local: 'ローカルファイルをスキャン中',
      metadata: 'メタデータを取得中',
      cleanup: 'クリーンアップ中',
      refresh: 'メタデータを更新中',
      files: '作品ファイルをスキャン中',
      purge: '見つからない作品を削除中',
    },
    cancelling: 'キャンセルしています...',
    added: '追加',
    updated: '更新',
    failed: '失敗',
    skipped: 'スキップ',
    count: (label, n) => `${label} ${n}`,
    inProgress: '処理中',
    failedList: (n) => `失敗 (${n})`,
    log: 'ログ',
    cancelHint: 'q または Ctrl-C でスキャンをキャンセル',
    started: (kind, runId, pid) => `スキャン開始 (${kind}, run ${runId}, pid ${pid})`,
    progress: (phase, done, total) => `進捗 ${phase}: ${done}/${total}`,
    messages: scanMessages,
  },
  importKikoeru: {
    description: 'ほかのサーバーからデータを取り込む',
    kikoeru: {
      description:
        'kikoeru 0.6.7 のデータを取り込む：ユーザー（これまでのパスワードでログイン可）、作品のメタデータ、ライブラリフォルダー、カバー、レビュー、再生履歴、AI 歌詞。kikoeru のファイルは読むだけ。もう一度実行しても新しい分だけを取り込む。終了コード 0 完了、2 拒否',
      db: 'kikoeru のデータベースファイル（db.sqlite3）',
      config: 'kikoeru の config.json（既定：データベースのフォルダーの隣の config/config.json）。md5secret でこれまでのパスワードが使える',
      lyrics: 'kikoeru の歌詞フォルダー（<タスク ID>.lrc。既定：設定の lyricFolderDir）',
      covers: 'kikoeru のカバーフォルダー：取り込んだ作品のカバーをコピーする',
      dryRun: '取り込む内容を表示するだけで、何も変更しない',
      json: '1 行に 1 つの JSON：進捗イベント、最後にまとめ',
    },
    phases: {
      check: 'kikoeru のデータベースを確認中',
      roots: 'ライブラリフォルダー',
      users: 'ユーザー',
      works: '作品',
      reviews: 'レビュー',
      history: '再生履歴',
      tasks: 'AI 歌詞タスク',
      covers: 'カバー',
    } as Record<string, string>,
    progress: (phase: string, done: number, total: number) => `${phase}：${done}/${total}`,
    title: 'kikoplay · kikoeru から取り込み',
    refused: {
      unreadable: (file: string) => `${file} を読めません`,
      'not-sqlite': (file: string) => `${file} は SQLite データベースではないため、kikoeru のものでもありません。何も変更していません`,
      'not-kikoeru': (file: string, missing: string) => `${file} は kikoeru のデータベースではありません（${missing} テーブルがありません）。何も変更していません`,
      'old-schema': (migrations: number, last: string, expected: number, key: string) =>
        `この kikoeru データベースは古いスキーマです（マイグレーション ${migrations} 件、最後は ${last || 'なし'}）。取り込めるのは kikoeru 0.6.7 のスキーマ（${expected} 件、${key} を含む）です。先に kikoeru の 0.6.7 への更新を完了してください。何も変更していません。`,
      'newer-schema': (migrations: number, last: string, expected: number) =>
        `この kikoeru データベースは 0.6.7 より新しいスキーマです（マイグレーション ${migrations} 件、最後は ${last}）。取り込めるのは 0.6.7 のスキーマ（${expected} 件）です。何も変更していません。`,
      'missing-columns': (missing: string) => `kikoeru のデータベースに、取り込みに必要なテーブルまたは列がありません：${missing}。何も変更していません。`,
      'bad-config': (file: string) => `kikoeru の設定 ${file} を読めません（kikoeru の config.json ですか？）。何も変更していません`,
      'scan-busy': (pid: number, kind: string) => `スキャンの実行中です（pid ${pid}、${kind}）。終わってから取り込んでください。何も変更していません。`,
    },
    summary: {
      dryRun: 'ドライラン：何も変更していません。取り込むとこうなります：',
      source: (version: string, migrations: number, last: string) => `kikoeru ${version} のデータベース：マイグレーション ${migrations} 件、最後は ${last}`,
      noConfig: 'kikoeru の config.json が見つからないため、パスワードを確認できません（--config で指定）。取り込んだアカウントには新しいパスワードが必要です',
      counts: (what: string, c: { created: number; updated: number; unchanged: number }) => `${what}：新規 ${c.created}、更新 ${c.updated}、変更なし ${c.unchanged}`,
      merged: (names: string) => `  既存のアカウントは kikoplay のパスワードのまま、kikoeru のデータを受け取りました：${names}`,
      needPassword: (names: string) =>
        `  使えるパスワードがありません（既定の admin/admin のまま、または md5secret なし）：${names} — データは保持しています。管理者がパスワードを設定するまでログインできません：kikoplay user passwd NAME`,
      rootAdded: (name: string, dir: string) => `  ライブラリフォルダーを追加：${name} → ${dir}`,
      rootPresent: (name: string, alias: string) => `  ライブラリフォルダー ${name} は kikoplay の ${alias} です`,
      rootUnreachable: (name: string, dir: string, why: string) =>
        `  ライブラリフォルダー ${name}（${dir}）にアクセスできません（${why}）。印を付けて保持し、その作品は「見つからない」として保持します。戻ったらもう一度取り込むと追加されます`,
      rootRefused: (name: string, dir: string, why: string) => `  ライブラリフォルダー ${name}（${dir}）は追加しません：${why}`,
      rootUnknown: (name: string, works: number) => `  ライブラリフォルダー ${name} は kikoeru の設定にありません：その作品 ${works} 件は「見つからない」として保持します`,
      works: (k: number, missing: number, hidden: number) => `  kikoplay のメタデータを保持：${k}、現在見つからない（フォルダーなし）：${missing}、kikoeru で非表示（声優なし）だが取り込み：${hidden}`,
      history: (mapped: number, kept: number) => `  トラック番号：kikoplay のファイルに対応付け ${mapped}、最初のスキャンまでそのまま ${kept}（スキャンは kikoeru と同じ順で番号を付けます）`,
      tasks: (lyrics: number, missing: number) => `  完成した歌詞：${lyrics}、歌詞ファイルなし（失敗として取り込み、やり直し可能）：${missing}`,
      covers: (copied: number, absent: number) => `カバー：コピー ${copied}、kikoeru のフォルダーにカバーなし ${absent}`,
      skipped: (n: number) => `スキップ：${n}`,
      skippedReason: (reason: string, n: number) => `  ${reason}：${n}`,
      skippedItem: (kind: string, key: string, reason: string) => `  ${kind} ${key}：${reason}`,
      rootsHeader: 'ライブラリフォルダー：',
      labels: { users: 'ユーザー', works: '作品', reviews: 'レビュー', history: '再生履歴', aiTasks: 'AI 歌詞タスク', roots: 'ライブラリフォルダー' },
      kinds: { user: 'ユーザー', work: '作品', review: 'レビュー', history: '履歴', task: 'AI タスク' } as Record<string, string>,
      reasons: {
        'work-unknown': '作品が kikoeru にも kikoplay にもない',
        'user-unknown': 'ユーザーを取り込んでいない（不明なグループ）',
        'empty-review': '評価・本文・進捗のどれもない',
        'bad-work-id': '作品 ID が数値ではない',
        'bad-state': 'プレーヤーの状態が JSON ではない',
        'bad-status': '不明なステータス、または音声のパスがない',
        'location-taken': 'そのフォルダーには別の作品が登録済み',
        'metadata-edited': '管理者が kikoplay でメタデータを編集済み：保持',
        'metadata-kikoplay': 'kikoplay が自分でメタデータを取得済み：保持',
      } as Record<string, string>,
    },
  },
  userManager: {
    title: 'kikoplay ユーザー管理',
    mismatch: 'パスワードが一致しません',
    created: (name) => `ユーザー ${name} を作成しました。`,
    passwordChanged: 'パスワードを変更しました。',
    roleChanged: (name, role) => `${name} のロールを ${role} に変更しました`,
    deleted: (name) => `ユーザー ${name} を削除しました。`,
    roles: { admin: '管理者', user: '一般ユーザー', guest: 'ゲスト' },
    keys: '↑/↓ 選択  [a] 追加  [p] パスワード変更  [r] ロール変更  [d] 削除  [q] 終了',
    formKeys: 'Enter 確定  Esc キャンセル',
    empty: 'ユーザーがいません',
    loading: '読み込み中…',
    columnName: 'ユーザー名',
    columnRole: 'ロール',
    columnCreated: '作成日時',
    addTitle: 'ユーザーを追加',
    name: 'ユーザー名',
    password: 'パスワード',
    group: 'グループ',
    toggle: '(←/→ 切り替え)',
    passwordTitle: (name) => `${name} のパスワードを変更`,
    newPassword: '新しいパスワード',
    confirmPassword: '新しいパスワード（確認）',
    roleTitle: (name) => `${name} のロールを変更`,
    select: '↑/↓ 選択',
    confirmDelete: (name) => `ユーザー ${name} を削除しますか？ レビューと再生履歴も削除されます。 [y/N]`,
  },
};
