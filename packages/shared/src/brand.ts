/**
 * The demo brand's name and contact facts. Colours live in the web app's theme.css; another brand
 * is a change of these two files' data, not of code.
 */
export const BRAND = {
  name: '山嵐茶事',
  nameLatin: 'Shanlan Tea',
  tagline: '南投山間的烘焙茶',
  founded: 1987,
  email: 'service@shanlan-tea.example',
  phone: '049-275-1987',
  address: '南投縣鹿谷鄉興產路 87 號',
  serviceHours: '週一至週五 09:00–18:00',
} as const;
