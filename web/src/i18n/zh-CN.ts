/**
 * The message catalogue: every string the web UI shows. The spec's Chinese strings are kept exactly
 * (including '密码长度至少为 5' for both login fields). Another language is another object of the
 * same `Messages` shape.
 */
export const zhCN = {
  app: {
    name: 'kikoplay',
    tagline: '自托管的音声作品库与播放器',
    loading: '加载中…',
  },
  nav: {
    works: '媒体库',
    favourites: '我的收藏',
    circles: '社团',
    tags: '标签',
    vas: '声优',
    aiLyric: 'AI 歌词中心',
    admin: '管理后台',
    about: '关于',
  },
  header: {
    menu: '菜单',
    back: '返回',
    home: '回到首页',
    keywordPlaceholder: '搜索作品',
    clearKeyword: '清空',
    advancedSearch: '高级搜索',
  },
  darkMode: {
    cycle: '切换夜间模式',
    auto: '夜间模式：跟随系统',
    on: '夜间模式：开',
    off: '夜间模式：关',
  },
  logout: {
    label: '登出',
    confirmTitle: '登出',
    confirm: '是否退出登录？',
    cancel: '取消',
    ok: '退出',
  },
  login: {
    title: '登录',
    subtitle: '登录以访问媒体库',
    name: '用户名',
    password: '密码',
    submit: '登录',
    // spec §5: both fields say the password length must be at least 5
    nameTooShort: '密码长度至少为 5',
    passwordTooShort: '密码长度至少为 5',
    success: '登录成功.',
    storageFailed: (message: string) => `无法保存登录状态：${message}`,
  },
  notices: {
    updateAvailable: '有新版本可用',
    updateOk: '好',
    lockLater: '以后提醒我',
    lockGoScanner: '前往扫描页',
    lockDefault: '媒体库正在扫描中，部分作品信息可能暂不完整。',
  },
  admin: {
    title: '仪表盘',
    folders: '音声库',
    scanner: '扫描',
    users: '用户管理',
    advanced: '高级设置',
    backHome: '回到主页',
  },
  about: {
    title: '关于 kikoplay',
    intro:
      'kikoplay 是一个自托管的音声、广播剧作品库与网页播放器：扫描本地的 DLsite 作品文件夹（RJ/BJ/VJ 编号），整理社团、标签、声优与评分，在浏览器里播放音频和视频、显示同步歌词。',
    version: '版本',
    serverVersion: '服务器版本',
    webVersion: '网页版本',
    unknownVersion: '未知',
    installTitle: '安装与运行',
    install: '以 npm 包 kikoplay 发布，一条命令即可运行：',
    installNote: '数据（数据库、封面、配置）保存在数据目录中，默认为 ~/.kikoplay，可用 --data-dir 指定。',
    adminTitle: '命令行管理',
    admin: '扫描媒体库、管理用户与配置也可以在终端里完成：',
    clientsTitle: '兼容的客户端',
    clients: 'kikoplay 保持 kikoeru 服务器的接口格式，下列 kikoeru 客户端可直接连接本服务器使用：',
    clientList: [
      { name: 'Kikoeru-Flutter', note: 'Flutter 移动客户端' },
      { name: 'Kikoeru-android', note: 'Android 客户端' },
      { name: 'kikoeru-quasar', note: 'kikoeru 原版网页客户端' },
      { name: 'kikoeru-translate', note: 'AI 歌词转写 worker' },
    ],
    licence: '以 MIT 许可证发布。',
  },
  notFound: {
    title: '抱歉，这里什么都没有…',
    code: '404',
    back: '返回首页',
  },
  routeError: {
    title: '页面加载失败',
    chunk: '页面资源加载失败，可能是服务器刚刚更新了版本，请刷新页面。',
    reload: '刷新页面',
  },
  errors: {
    title: '错误',
    warning: '提示',
    network: '无法连接服务器',
  },
};

export type Messages = typeof zhCN;
