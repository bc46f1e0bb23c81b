/**
 * The Subsonic section of the account page (features/account/SubsonicSection.tsx), in a catalogue of
 * its own: it is read only on that lazily loaded page, so it stays out of the initial load. en.ts and
 * ja.ts have its shape; web-i18n-catalogues.test.ts checks all three like the main catalogues.
 */
export const zhCN = {
  title: 'Subsonic（原生音乐应用）',
  hint: (origin: string) => `Symfonium、Feishin、DSub 等应用使用用户名和 API 密钥或下方的 Subsonic 密码连接 ${origin}，不能使用登录密码。`,
  guestNote: '游客账号可以使用管理员创建的凭据，但不能修改。',
  keysTitle: 'API 密钥',
  noKeys: '还没有 API 密钥。',
  keyName: '名称',
  created: '创建时间',
  lastUsed: '最近使用',
  never: '从未使用',
  revoke: '吊销',
  revokeNamed: (name: string) => `吊销密钥 ${name}`,
  namePlaceholder: '应用或设备名，例如 phone',
  nameMissing: '请为密钥命名。',
  nameTaken: '已有同名的密钥。',
  makeKey: '创建密钥',
  keyMade: (name: string) => `已创建 API 密钥「${name}」`,
  keyOnce: '请立即复制：密钥只显示这一次。',
  copy: '复制',
  copied: '已复制',
  done: '完成',
  revoked: '已吊销 API 密钥。',
  passwordTitle: 'Subsonic 密码',
  passwordSet: '已设置 Subsonic 密码，重新设置会替换它。',
  passwordNone: '未设置 Subsonic 密码，不支持 API 密钥的应用无法登录。',
  passwordLabel: '新的 Subsonic 密码',
  passwordTooShort: (n: number) => `至少需要 ${n} 个字符。`,
  savePassword: '保存密码',
  clearPassword: '删除',
  passwordSaved: '已保存 Subsonic 密码。',
  passwordCleared: '已删除 Subsonic 密码。',
};

export type SubsonicMessages = typeof zhCN;
