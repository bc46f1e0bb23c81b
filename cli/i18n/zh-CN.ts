/**
 * The terminal's Chinese catalogue. Texts the terminal, the web and kikoeru clients already show in
 * Chinese are kept exactly (the scan's log lines are the scanner's own, server/library/scan/scan-messages.ts).
 */
import { MSG } from '../../server/library/scan/scan-messages.js';
import type { CliCatalog } from './en.js';

const WORKER_HELP = `
工作方式:
  worker 从服务器的 AI 歌词队列中取出最早的待处理任务，下载音频，用兼容 OpenAI 的
  /v1/audio/transcriptions 服务（OpenAI、whisper.cpp server、faster-whisper 服务、LocalAI）转写，
  报告进度（显示在 AI 歌词中心），再以 LRC 格式送回歌词：每个片段一行 "[MM:SS.CC] 文本"。
  使用 --translate-to 时，每行之后跟着同一时间戳下的译文（兼容 OpenAI 的 /v1/chat/completions）。

长音频:
  不超过 --max-upload-mb 与 --max-chunk-minutes 的文件原样上传。更大或更长的文件用自带的 ffprobe
  （无需 ffmpeg）解码为 16 kHz 单声道，在最安静处切成不超过两项限制的片段，以 WAV 片段上传
  （16 kHz 单声道 WAV 每分钟 1.9 MB，默认的 24 MB 约可容纳 13 分钟）。时间戳会换算回整条音轨。
  ffprobe 能解码的格式都可以（mp3、m4a、flac、ogg、opus、wav、webm、mp4 …）。
  --wav 总是发送 16 kHz WAV（用于只接受 WAV 的服务，例如不带 --convert 的 whisper.cpp）。

凭据:
  --token 使用 "kikoplay worker-token create NAME" 创建的 worker 令牌（环境变量 KIKOPLAY_WORKER_TOKEN），
  它只能访问 worker 接口。也可以用 --user/--password 以用户身份（不能是游客）登录
  （环境变量 KIKOPLAY_WORKER_PASSWORD）；登录过期后 worker 会自行重新登录。
  转写服务的 API 密钥可来自环境变量 OPENAI_API_KEY，API 地址可来自 OPENAI_BASE_URL。

可靠性:
  进行中的任务保存在 --state-dir 中，重启后继续（已完成的片段不会重新转写）。网络错误会退避重试
  （1 秒起倍增至 1 分钟）。Ctrl-C 立即停止且不提交任何结果：任务由下次启动继续，或在服务器的租约
  （aiTaskLeaseMinutes）到期后回到队列。长请求进行期间，每 --heartbeat 秒发送一次心跳以保持租约。

示例:
  kikoplay worker --server http://nas:8888 --token kpw_... --api-key sk-... --language ja
  kikoplay worker --server http://nas:8888 --user worker1 --password *** \\
      --api-base http://127.0.0.1:8080 --model large-v3 --translate-to zh \\
      --translate-api-base http://127.0.0.1:11434 --translate-model qwen2.5 --glossary terms.txt
`;

export const zhCN: CliCatalog = {
  lang: 'zh-CN',
  commander: {
    usage: '用法:',
    options: '选项:',
    commands: '命令:',
    arguments: '参数:',
    globalOptions: '全局选项:',
    optionsWord: '[选项]',
    commandWord: '[命令]',
    defaultWord: '默认:',
    help: '显示命令帮助',
    version: '显示版本号',
    afterError: '(使用 --help 查看用法)',
    error: '错误:',
    unknownCommand: (name) => `未知命令 '${name}'`,
    unknownOption: (flag) => `未知选项 '${flag}'`,
    missingArgument: (name) => `缺少必需的参数 '${name}'`,
    optionMissingArgument: (flags) => `选项 '${flags}' 缺少参数值`,
    requiredOption: (flags) => `未指定必需的选项 '${flags}'`,
    tooManyArguments: (expected, got) => `参数过多: 需要 ${expected} 个，收到 ${got} 个.`,
    didYouMean: (word) => `(是否想输入 ${word}?)`,
  },
  help: {
    program: '自托管的音声作品库服务器与网页播放器',
    dataDir: '数据目录（环境变量 KIKOPLAY_DATA_DIR，默认 ~/.kikoplay）',
    lang: '终端语言: en、ja 或 zh-CN（环境变量 KIKOPLAY_LANG，其次 LC_ALL / LC_MESSAGES / LANG）',
    logFormat: '日志格式: pretty（每条一行可读文字）或 json（环境变量 KIKOPLAY_LOG_FORMAT；终端上默认 pretty，否则 json）',
    serve: {
      description: '运行 kikoplay 服务器（API、网页应用、定时扫描）',
      port: '监听端口（默认 8888，环境变量 PORT）',
      host: '绑定地址（默认所有网络接口；开启 blockRemoteConnection 时为 127.0.0.1）',
      noAuth: '关闭身份验证: 所有访问者都以管理员身份操作',
    },
    scan: {
      description: '扫描媒体库文件夹中的作品（终端上显示界面，否则输出纯文本行或 --json）；退出码 0 全部成功，1 部分作品失败，2 严重错误',
      json: '每行输出一个 JSON 事件',
      full: '重新扫描所有作品，即使没有变化',
      files: '重新扫描所有作品的文件（时长、字幕标记）',
      refreshMetadata: '重新抓取所有作品的元数据（与 --work 一起: 只抓取该作品）',
      work: '扫描单个作品，例如 RJ123456',
      offline: '只索引本地文件，不抓取元数据',
      purgeMissing: '删除文件夹已缺失的作品，连同其评价、播放历史与 AI 歌词',
    },
    user: {
      description: '管理用户账号（在终端上不带子命令时: 打开交互式管理界面）',
      list: '列出用户及其角色',
      json: '输出 JSON',
      add: '创建用户',
      addPassword: '密码（省略时在终端上提示输入）',
      addRole: (roles) => `${roles} 之一`,
      passwd: '修改用户的密码（该用户已有的登录随之失效）',
      passwdPassword: '新密码（省略时在终端上提示输入）',
      role: (roles) => `修改用户的角色（${roles}）`,
      delete: '删除用户及其评价和播放历史',
    },
    config: {
      description: '查看和修改配置（<data-dir>/config.json）',
      get: '输出某个键的生效值，或以 JSON 输出所有键',
      set: '设置一个键；VALUE 能解析为 JSON 时按 JSON 解析（例如 20、true、\'[{"name":"lib","path":"/srv"}]\'）',
      unset: '从 config.json 中移除一个键，使其恢复默认值',
      validate: '检查 config.json 与 KIKOPLAY_* 环境变量；无效时退出码为 1',
      path: '输出 config.json 的路径',
    },
    demo: {
      description: '在数据目录中写入一个可播放的小型演示媒体库，注册为根文件夹并扫描',
      noScan: '只写入并注册媒体库',
    },
    workerToken: {
      description: '管理 AI 转写 worker 的令牌（只能访问 worker 接口）',
      create: '创建一个 worker 令牌并只显示一次（只保存其哈希）',
      list: '列出 worker 令牌（名称、创建时间、最近使用；从不显示令牌本身）',
      revoke: '立即吊销一个 worker 令牌（运行中的服务器马上不再接受它）',
      json: '输出 JSON',
    },
    worker: {
      description: '运行一个连接 kikoplay 服务器的 AI 歌词转写 worker',
      server: 'kikoplay 服务器地址，例如 http://192.168.1.10:8888',
      token: 'worker 令牌（环境变量 KIKOPLAY_WORKER_TOKEN）',
      user: '以该用户身份登录，代替令牌',
      password: '--user 的密码（环境变量 KIKOPLAY_WORKER_PASSWORD）',
      name: '显示在 AI 歌词中心的 worker 名称（默认: 主机名）',
      engine: '转写引擎: openai',
      apiBase: '兼容 OpenAI 的服务（环境变量 OPENAI_BASE_URL，默认 https://api.openai.com）',
      apiKey: '服务的 API 密钥（环境变量 OPENAI_API_KEY）',
      model: '转写模型',
      language: '语音的语言（ISO 639-1；"" = 自动检测）',
      prompt: '转写提示词（人名、风格）',
      translateTo: '同时把每行翻译成该语言（例如 zh），生成双语 LRC',
      translateApiBase: '用于翻译的兼容 OpenAI 的对话服务（默认: --api-base）',
      translateApiKey: '翻译用的 API 密钥（默认: --api-key）',
      translateModel: '翻译用的对话模型',
      glossary: '翻译词汇表: 每行一个 "术语=译文"',
      stateDir: '保存进行中的任务、其音频与登录信息的位置（默认 ~/.kikoplay-worker）',
      poll: '队列为空时两次检查之间的等待秒数',
      once: '最多处理一个任务（队列为空时不处理），然后退出',
      maxUploadMb: '转写服务接受的最大上传大小',
      maxChunkMinutes: '每次请求的最长音频',
      wav: '总是上传 16 kHz 单声道 WAV',
      heartbeat: '请求进行期间的进度/租约心跳间隔',
      quiet: '只记录警告和错误',
      after: WORKER_HELP,
    },
  },
  errors: {
    unknownLang: (value, langs) => `未知的语言 "${value}"（--lang 可选 ${langs}）`,
    unknownConfigKey: (key) => `未知的配置键 "${key}"（用 \`kikoplay config get\` 查看所有键）`,
    configUnchanged: (why) => `${why}（config.json 未改动）`,
    folderRefused: (at, value, why) => `${at}「${value}」: ${why}`,
    badPort: (value) => `--port 必须是端口号（0-65535），收到 "${value}"`,
    portInUse: (port, host) => `端口 ${port} 在 ${host} 上已被占用，请用 --port N（或环境变量 PORT）换一个端口`,
    badLogFormat: (value) => `未知的日志格式 "${value}"（--log-format 可用 pretty 或 json）`,
    noAuthInProduction: 'production 开启时不允许使用 --no-auth',
    passwordRequired: '不在终端上运行时必须提供 --password',
    passwordMismatch: '两次密码输入不一致',
    cancelled: '已取消',
    flagsConflict: (flags) => `这些选项不能同时使用: ${flags}`,
    badWorkCode: (value) => `--work 需要 RJ123456、BJ123456 或 VJ12345678 这样的作品编号，收到 "${value}"`,
    refreshOffline: '--refresh-metadata 不能与 --offline 一起使用',
    outputClosed: '输出已关闭，扫描已停止',
    scanCancelled: '扫描已取消',
    rootsStopped: (roots) => `根文件夹无法扫描: ${roots}`,
    worksFailed: (n) => `${n} 个作品处理失败`,
    metadataFailed: (n) => `${n} 个作品的元数据获取失败`,
    demoAliasTaken: (alias, where) => `名为 "${alias}" 的根文件夹已指向 ${where}；请先移除它（kikoplay config set rootFolders ...）`,
  },
  configFile: {
    configInvalidIn: (file, why) => `${file} 中的配置无效: ${why}`,
    configInvalid: (why) => `配置无效: ${why}`,
    envInvalid: (why) => `环境变量中的配置无效: ${why}`,
    notJson: (file, why) => `${file} 不是有效的 JSON: ${why}`,
    notObject: (file) => `${file} 必须是一个 JSON 对象`,
  },
  /** The AI worker's log lines and the errors that stop it (server/worker/messages.ts). */
  worker: {
    warning: '警告',
    error: '错误',

    connected: (name, server) => `工作节点 "${name}" 已连接到 ${server}`,
    forgetTask: (id, server) => `放弃另一台服务器 (${server}) 的任务 ${id}`,
    resuming: (id) => `继续任务 ${id}`,
    queueEmpty: (seconds) => `队列为空；每 ${seconds} 秒检查一次`,
    acquired: (id) => `已领取任务 ${id}`,
    retrying: (step, why, seconds) => `${step}: ${why}；${seconds} 秒后重试`,
    gaveUp: (why, attempts) => `${why}（尝试 ${attempts} 次后放弃）`,

    progress: (id, text) => `任务 ${id}: ${text}`,
    done: (id) => `任务 ${id}: 完成`,
    failed: (id, why) => `任务 ${id}: 失败: ${why}`,
    dropped: (id) => `任务 ${id}: 服务器已收回，放弃该任务`,
    notTaken: (id) => `任务 ${id}: 服务器未接收结果（任务已不由本节点持有）`,
    failureNotReported: (id, why) => `任务 ${id}: 无法报告失败: ${why}`,
    translationFailed: (id, why) => `任务 ${id}: 翻译失败，只发送转写结果: ${why}`,
    noLongerOurs: (id) => `任务 ${id}: 服务器上该任务已不属于本节点，放弃该任务`,
    heartbeatFailed: (id, why) => `任务 ${id}: 心跳失败: ${why}`,

    unreachable: (server) => `无法连接服务器 ${server}`,
    loggedIn: (server, user) => `已以 ${user} 身份登录 ${server}`,
    loggingInAgain: '服务器返回 401：重新登录',
    tokenRefused: '服务器拒绝了该令牌（已撤销或已过期）；请提供新的 --token 或 --user/--password',
    loginWithoutToken: '登录应答中没有令牌',
    loginRefused: (user, status, why) => `以 ${user} 身份登录被拒绝 (${status}): ${why}`,
    needsLogin: '服务器需要登录：请提供 --token 或 --user/--password',
    meAnswered: (status, why) => `服务器对 GET /api/auth/me 返回 ${status}: ${why}`,
    newLoginRefused: (why) => `重新登录也被拒绝: ${why}`,
    notAllowed: (why) => `该账号不能执行任务 (403): ${why}`,
    answered: (step, status, why) => `${step} 返回 ${status}: ${why}`,
    unexpectedBody: (step, body) => `${step} 返回了意外的内容: ${body}`,
    apiKeyRefused: (status, why) => `转写服务返回 ${status}: ${why}（请检查 --api-key）`,

    serverRequired: '需要 --server URL（kikoplay 服务器，例如 http://192.168.1.10:8888）',
    notHttpUrl: (flag, value) => `${flag} 必须是 http(s) URL，收到 "${value}"`,
    notNumber: (flag, min, max, value) => `${flag} 必须是 ${min} 到 ${max} 之间的数字，收到 "${value}"`,
    tokenOrUser: '--token 与 --user/--password 只能二选一',
    userNeedsPassword: '--user 需要 --password（或环境变量 KIKOPLAY_WORKER_PASSWORD）',
    passwordNeedsUser: '--password 需要 --user',
    unknownEngine: (engine) => `未知的 --engine "${engine}"（可用: openai）`,
    badName: '--name 必须为 1–100 个字符',
    translateToEmpty: '--translate-to 需要指定语言（例如 zh）',
    translateNeedsModel: '--translate-to 需要 --translate-model（对话模型，例如 gpt-4o-mini）',
    glossaryUnreadable: (file, why) => `无法读取 --glossary ${file}: ${why}`,
    glossaryInvalid: (file, why) => `--glossary ${file}: ${why}`,
    translateOptionsNeedTo: '--translate-model、--translate-api-base、--translate-api-key 和 --glossary 需要 --translate-to',
  },
  messages: {
    promptPassword: '密码',
    promptNewPassword: '新密码',
    promptRepeat: '再次输入',
    userCreated: (role, name) => `已创建${role === 'admin' ? '管理员' : role === 'guest' ? '游客' : '用户'} ${name}`,
    passwordChanged: (name) => `${name} 的密码已修改`,
    roleChanged: (name, role) => `${name} 的角色已改为 ${role}`,
    usersDeleted: (n) => `已删除 ${n} 个用户`,
    configReset: (key) => `${key} 已恢复默认值`,
    folderMissing: (at, dir) => `警告: ${at}: ${dir} （暂时）不存在；设置已保存，文件夹出现之前扫描无法读取它`,
    configOk: (file) => `${file}: 有效`,
    demoWritten: (n, dir, alias) => `演示媒体库: ${dir} 中有 ${n} 个作品（根文件夹 "${alias}"）`,
    workMemo: (code, files, seconds, lyric) => `${code}: ${files} 个音频文件，总时长 ${seconds} 秒，字幕: ${lyric}`,
    listening: (url, dataDir, auth) => `kikoplay 正在监听 ${url}（数据目录 ${dataDir}，身份验证${auth ? '已开启' : '已关闭'}）`,
    reachableAt: '访问地址:',
    firstStart: {
      title: 'kikoplay: 首次启动',
      user: '管理员用户名:',
      password: '管理员密码:  ',
      saved: (file) => `（也已写入 ${file}；登录后请修改）`,
    },
    noAuthWarning: {
      title: '警告: 身份验证已关闭',
      where: (where) => `kikoplay 在${where}上监听，且身份验证已关闭:`,
      address: (host) => ` ${host} `,
      allInterfaces: '所有网络接口',
      lines: ['任何能访问此端口的人都以管理员身份操作——可以浏览你的', '媒体库、修改设置、添加文件夹和删除用户。', '请使用 --host 127.0.0.1（或 blockRemoteConnection），或开启身份验证。'],
    },
    workerTokenCreated: (name) => `已创建 worker 令牌 "${name}"。它只显示这一次: 请立即保存。`,
    workerTokenUse: '用法: kikoplay worker --server URL --token <令牌>   （或环境变量 KIKOPLAY_WORKER_TOKEN）',
    workerTokenRevoked: (name) => `已吊销 worker 令牌 "${name}"`,
    noWorkerTokens: '没有 worker 令牌',
    workerStopping: (signal) => `${signal}: 正在停止（再按一次 Ctrl-C 立即退出）；进行中的任务保留到下次启动`,
    workerStopped: (done, failed, lost, bySignal) => `worker 已停止: 完成 ${done} 个，失败 ${failed} 个，交回 ${lost} 个${bySignal ? '（被信号停止）' : ''}`,
  },
  table: {
    name: '名称',
    role: '角色',
    created: '创建时间',
    status: '状态',
    lastUsed: '最近使用',
    revoked: '已吊销',
    active: '有效',
    never: '从未',
  },
  scan: {
    kinds: { scan: '扫描媒体库', refresh: '刷新元数据', files: '扫描作品文件', work: '扫描单个作品', purge: '清除缺失作品' },
    phases: {
      discover: '查找文件夹',
      local: '扫描本地文件',
      metadata: '抓取元数据',
      cleanup: '清理',
      refresh: '刷新元数据',
      files: '扫描作品文件',
      purge: '清除缺失作品',
    },
    cancelling: '正在取消...',
    added: '新增',
    updated: '更新',
    failed: '失败',
    skipped: '跳过',
    count: (label, n) => `${label} ${n}`,
    inProgress: '处理中',
    failedList: (n) => `失败 (${n})`,
    log: '日志',
    cancelHint: '按 q 或 Ctrl-C 取消扫描',
    started: (kind, runId, pid) => `开始扫描 (${kind}, run ${runId}, pid ${pid})`,
    progress: (phase, done, total) => `进度 ${phase}: ${done}/${total}`,
    messages: MSG,
  },
  userManager: {
    title: 'kikoplay 用户管理',
    mismatch: '两次密码输入不一致',
    created: (name) => `用户 ${name} 创建成功.`,
    passwordChanged: '密码修改成功.',
    roleChanged: (name, role) => `${name} 的角色已改为 ${role}`,
    deleted: (name) => `用户 ${name} 已删除.`,
    roles: { admin: '管理员', user: '普通用户', guest: '游客' },
    keys: '↑/↓ 选择  [a] 添加  [p] 修改密码  [r] 修改角色  [d] 删除  [q] 退出',
    formKeys: 'Enter 确认  Esc 取消',
    empty: '没有用户',
    loading: '加载中…',
    columnName: '用户名',
    columnRole: '角色',
    columnCreated: '创建时间',
    addTitle: '添加用户',
    name: '用户名',
    password: '密码',
    group: '用户组',
    toggle: '(←/→ 切换)',
    passwordTitle: (name) => `修改 ${name} 的密码`,
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    roleTitle: (name) => `修改 ${name} 的角色`,
    select: '↑/↓ 选择',
    confirmDelete: (name) => `确定要删除用户 ${name} 吗？该用户的评价和播放历史也会一并删除。 [y/N]`,
  },
};
