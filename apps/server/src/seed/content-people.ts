import type {
  SeedCompany,
  SeedJob,
  SeedLanding,
  SeedMaster,
  SeedMedia,
  SeedTeamMember,
} from './content-types.ts';

/**
 * Demo content about the people of 山嵐茶事 (Shanlan Tea): the landing page's words, the company
 * page, the team, the tea masters, job openings and press. Every person, outlet and article here is
 * fictional; addresses and phone numbers are made up for the demo shop. Portraits are described
 * as flat illustrations and drawn by code at seed time (see portraits.ts).
 */

export const DEMO_LANDING: SeedLanding = {
  heroTitle: '鹿谷山上，焙一壺好茶',
  heroLead:
    '從 1987 年起，我們在南投鹿谷焙茶。三代人守著龍眼木炭與凍頂烏龍，也把台灣各山頭的當季好茶仔細挑過、寫清楚，再送到您手上。',
  announcements: [
    { text: '2026 冬茶陸續上市，奇萊山冬茶預計 12 月到貨。', href: '/mall' },
    { text: '宅配滿 {{home.freeOver}}、超商取貨滿 {{cvs.freeOver}}，即享免運費。', href: '/shippingFee' },
    { text: '新春好茶禮盒開放預購，可免費代寫賀卡。', href: '/mall/lunar-new-year-gift-box' },
    { text: '鹿谷品茶室週末開放，歡迎事先預約品茶。', href: '/home' },
  ],
  promises: [
    { title: '每批親自試泡', text: '每一批茶都由評茶師試泡、寫好茶單，確認沒有雜味才上架。' },
    { title: '資訊寫清楚', text: '產地、海拔、採收季與焙火程度，都寫在商品頁上，不用猜。' },
    { title: '1–3 天出貨', text: '付款後 1–3 個工作天從鹿谷出貨，茶葉以真空包裝保鮮。' },
  ],
  featuredProductSlugs: [
    'dongding-oolong',
    'master-roasted-old-bush-oolong',
    'lishan-high-mountain-oolong',
    'ruby-black-tea-t18',
    'shanlan-cold-brew-bottle',
    'lunar-new-year-gift-box',
  ],
  joinTitle: '加入山嵐會員',
  joinText: '註冊後可查詢訂單、累積會員等級，並搶先收到新茶上市與品茶活動的消息。',
};

export const DEMO_COMPANY: SeedCompany = {
  title: '關於山嵐茶事',
  lead: '山嵐茶事是南投鹿谷的家族茶行，1987 年由陳金水與妻子開業。三代人在同一條路上焙茶、賣茶，現在也透過網路商店，把鹿谷的茶香送到全台灣。',
  story: [
    {
      heading: '三代人，一間焙茶室',
      blocks: [
        {
          type: 'paragraph',
          text: '1987 年，陳金水在鹿谷興產路租下一間小店面，白天幫鄰居茶農焙茶，晚上自己泡茶給客人試喝。店裡只賣一款茶：自家焙的凍頂烏龍。',
        },
        {
          type: 'paragraph',
          text: '兒子陳家和退伍後就跟著父親顧炭爐，一顧就是近四十年。2018 年，孫女陳以安從臺北回到鹿谷，接下經營的工作，也開了山嵐的網路商店。',
        },
        { type: 'quote', text: '茶是山給的，我們只是把它顧好。', cite: '陳金水，山嵐茶事創辦人' },
      ],
    },
    {
      heading: '鹿谷的山與霧',
      blocks: [
        {
          type: 'paragraph',
          text: '「山嵐」是山間的霧氣。鹿谷的茶園多在海拔 600 到 1,000 公尺的丘陵上，午後常起霧，日照溫和，茶芽長得慢，滋味也更飽滿。',
        },
        {
          type: 'paragraph',
          text: '除了家門口的凍頂山，我們也和杉林溪、梨山、大禹嶺、阿里山與翠峰的茶農合作多年。每年春、冬兩季上山看茶，只挑香氣乾淨的批次。',
        },
      ],
    },
    {
      heading: '龍眼木炭與 21 天',
      blocks: [
        {
          type: 'paragraph',
          text: '焙茶室裡的炭焙爐，燒的是南投本地的龍眼木炭。炭火溫度穩、香氣溫和，但需要有人整夜顧著。我們的招牌焙法，是陳家和師傅花了五年試出來的分段炭焙：',
        },
        {
          type: 'list',
          items: [
            '每焙一段，就讓茶葉靜置回潤，再焙下一段。',
            '反覆七回，前後共 21 天。',
            '每一段都會試泡，依茶況調整下一段的溫度與時間。',
          ],
        },
        {
          type: 'paragraph',
          text: '這套焙法在 2016 年取得發明專利。專利寫得下步驟，寫不下的是師傅的手感，所以每一批焙好的茶，仍由陳師傅親自試過才出爐。',
        },
        { type: 'quote', text: '焙火不是為了蓋住茶，是為了讓茶安定下來。', cite: '陳家和，山嵐焙茶師傅' },
      ],
    },
    {
      heading: '為什麼在網路上賣茶',
      blocks: [
        {
          type: 'paragraph',
          text: '很多老客人搬到外地，還是會打電話回鹿谷訂茶。我們想讓喝慣山嵐的人不論住在哪裡，都買得到同一款茶，也讓第一次認識台灣茶的人，有地方慢慢了解。',
        },
        {
          type: 'list',
          items: [
            '商品頁寫清楚產地、海拔、採收季與焙火程度。',
            '每款茶附上沖泡方式，照著做就能泡出好味道。',
            '有任何問題，客服都會由懂茶的同事回覆。',
          ],
        },
        {
          type: 'paragraph',
          text: '網路商店讓茶走得更遠，但我們仍然歡迎您來鹿谷坐坐。焙茶室與品茶室都在同一條路上，茶已經泡好了。',
        },
      ],
    },
  ],
  values: [
    { title: '誠實標示', text: '產地、品種、採收季與焙火程度都照實寫出。是哪座山的茶，就寫哪座山。' },
    { title: '慢慢焙', text: '好茶需要時間。該焙 21 天的茶，不會為了趕出貨少焙一天。' },
    { title: '照顧茶農', text: '和合作的茶農約定合理的收購價，一起做長久的生意，而不是只買一季。' },
    { title: '把茶說清楚', text: '不用艱深的術語，用您聽得懂的話，說明這杯茶好在哪裡、該怎麼泡。' },
  ],
  milestones: [
    { year: 1987, text: '陳金水與妻子在鹿谷興產路開設茶行，賣自家焙的凍頂烏龍。' },
    { year: 1993, text: '凍頂烏龍首次在地方優良茶比賽中獲獎，老客人開始從外縣市專程來買茶。' },
    { year: 1999, text: '九二一地震後焙茶室受損，一家人花了半年重新砌好炭焙爐，隔年春茶照常出貨。' },
    { year: 2004, text: '第二代陳家和接手焙茶，開始與杉林溪、梨山的高山茶農合作。' },
    { year: 2014, text: '評茶師林秀琴加入，建立每批茶都要試泡、寫茶單的制度。' },
    { year: 2016, text: '試驗五年的分段炭焙法取得發明專利，推出師傅炭焙老欉烏龍。' },
    { year: 2018, text: '第三代陳以安返鄉接手經營，山嵐網路商店上線。' },
    { year: 2022, text: '和玻璃廠合作兩年的山嵐冷泡瓶取得新型專利，同年推出冷泡茶包。' },
    { year: 2023, text: '臺中品茶室開幕，黃柏鈞老師開設週末茶席課。' },
    { year: 2026, text: '網路商店全面改版，推出會員等級與茶師檔案，讓您更認識每一杯茶背後的人。' },
  ],
  locations: [
    {
      name: '鹿谷焙茶室與門市',
      address: '南投縣鹿谷鄉興產路 87 號',
      hours: '週二至週日 09:00–17:30（週一公休）',
      phone: '049-275-1987',
      note: '二樓品茶室週末開放，請事先來電預約。焙茶期間可隔著玻璃參觀炭焙爐。',
    },
    {
      name: '臺中品茶室',
      address: '臺中市西區五權西三街 62 號 1 樓',
      hours: '週三至週日 11:00–19:00',
      phone: '04-2376-1987',
      note: '週六、週日下午有茶席課，名額有限，請提前報名。',
    },
    {
      name: '臺北大稻埕選品櫃',
      address: '臺北市大同區迪化街一段 148 號',
      hours: '每日 10:00–18:00',
      phone: '02-2556-1987',
      note: '由合作選物店代為服務，販售當季茶款與禮盒，不提供網路訂單取貨。',
    },
  ],
};

export const DEMO_TEAM: SeedTeamMember[] = [
  {
    slug: 'chen-yi-an',
    name: '陳以安',
    role: '第三代負責人',
    department: '經營管理',
    summary: '在臺北做了八年產品企劃，2018 年回到鹿谷。負責山嵐的經營，也是網路商店的發起人。',
    bio: [
      '以安是在焙茶室長大的孩子。小時候放學回家，寫功課的桌子就在炭焙爐旁邊，衣服上總有一股淡淡的炭香。',
      '大學畢業後，她在臺北的科技公司做了八年產品企劃。2018 年父親陳家和說想把經營交出去，專心焙茶，她就辭了工作回到鹿谷，第一件事是把店裡的茶單一款一款拍照、寫說明，做成山嵐的網路商店。',
      '她相信好茶不需要誇大的形容詞，只要把資訊寫清楚，喝的人自然會懂。平常在焙茶室和辦公室之間來回，週末偶爾也會到品茶室幫忙泡茶。',
    ],
    favouriteTea: '凍頂烏龍，冬天一定要喝熱的',
    portrait: {
      background: '#DCE6DD',
      skin: '#F1D3BC',
      hair: '#2B211C',
      hairStyle: 'long',
      clothing: '#3F6B4F',
      accessory: 'none',
      alt: '長髮及肩、穿深綠色上衣的女性插畫肖像',
    },
  },
  {
    slug: 'wang-guan-ting',
    name: '王冠廷',
    role: '網路商店店長',
    department: '電子商務',
    summary: '負責網路商店的商品上架、活動企劃與會員制度。最在意的是您能不能很快找到想買的茶。',
    bio: [
      '冠廷是臺中人，之前在一家生活選物電商負責營運。2019 年來鹿谷喝茶時遇到以安，聊了一個下午，半年後就搬到南投。',
      '他每週都會整理客服收到的問題，把常被問到的事寫進商品頁與常見問題。新茶上架前，他會跟林師傅一起試泡，確認說明文字和茶的味道對得上。',
    ],
    favouriteTea: '阿里山金萱烏龍，加冰塊冷泡',
    portrait: {
      background: '#E8DCCB',
      skin: '#E6BFA0',
      hair: '#1E1A18',
      hairStyle: 'short',
      clothing: '#5B6F86',
      accessory: 'glasses',
      alt: '短髮、戴黑框眼鏡、穿藍灰色上衣的男性插畫肖像',
    },
  },
  {
    slug: 'li-pei-shan',
    name: '李佩珊',
    role: '客服主任',
    department: '客服',
    summary: '電話與線上訊息的第一線。她會先問您平常怎麼喝茶，再幫您挑適合的款式。',
    bio: [
      '佩珊在山嵐工作了九年，從門市做起，後來負責電話訂購，現在帶領客服團隊。老客人打電話來，常常一開口她就認得聲音。',
      '她的原則是：每個問題都要說清楚發生了什麼、接下來怎麼做。包裹晚到、茶葉受潮、送禮要代寫卡片，都可以直接找她。',
      '客服時間是週一至週五 09:00–18:00，您也可以寫信到 service@shanlan-tea.example，她會在一個工作天內回覆。',
    ],
    favouriteTea: '東方美人，下午三點配一塊綠豆糕',
    portrait: {
      background: '#F0DDD6',
      skin: '#F3D6C4',
      hair: '#4A3328',
      hairStyle: 'short',
      clothing: '#A35D4E',
      accessory: 'glasses',
      alt: '俐落短髮、戴細框眼鏡、穿磚紅色上衣的女性插畫肖像',
    },
  },
  {
    slug: 'zhang-jia-hao',
    name: '張家豪',
    role: '出貨與物流組長',
    department: '出貨物流',
    summary: '每一箱從鹿谷寄出的茶，都經過他的手。包裝要穩、要快，也要好拆。',
    bio: [
      '家豪是鹿谷在地人，以前在物流公司跑中部路線，對山路和每家貨運的收貨時間都很熟。',
      '他設計了山嵐現在的出貨流程：茶葉真空包裝後裝進紙盒，空隙用回收紙填滿，不用塑膠氣泡袋。茶壺和冷泡瓶另外加一層瓦楞紙套，寄到離島也沒問題。',
      '年節前是他最忙的時候，禮盒訂單一天可以出貨三百箱。他說最開心的，是收到客人寄來的開箱照片。',
    ],
    favouriteTea: '高山烏龍冷泡茶包，一早泡好帶去倉庫',
    portrait: {
      background: '#D9E2E6',
      skin: '#D9A883',
      hair: '#231C17',
      hairStyle: 'short',
      clothing: '#34495E',
      accessory: 'apron',
      alt: '短髮、穿深藍上衣並繫著工作圍裙的男性插畫肖像',
    },
  },
  {
    slug: 'liu-jing-yi',
    name: '劉靜宜',
    role: '品茶室主理人',
    department: '品茶室',
    summary: '負責鹿谷品茶室的茶席與接待。她泡的茶，常讓第一次來的客人說「原來烏龍茶是甜的」。',
    bio: [
      '靜宜原本是國小老師，因為跟著黃柏鈞老師學茶，週末常來鹿谷幫忙。2020 年，她決定辭去教職，成為品茶室的主理人。',
      '她會依季節更換茶席：春天用白瓷配清香的高山茶，冬天用朱泥壺泡焙火的凍頂。來品茶的客人不用懂茶，只要說說平常喜歡的味道，她就會幫您安排。',
    ],
    favouriteTea: '杉林溪高山茶，用白瓷蓋碗沖泡',
    portrait: {
      background: '#E4E0EE',
      skin: '#F0CDB4',
      hair: '#3A2A22',
      hairStyle: 'bun',
      clothing: '#6E5A7E',
      accessory: 'scarf',
      alt: '盤起髮髻、圍著米色圍巾、穿紫灰色上衣的女性插畫肖像',
    },
  },
  {
    slug: 'xu-ya-zhu',
    name: '許雅筑',
    role: '攝影與視覺設計',
    department: '品牌設計',
    summary: '網站上的商品照、茶罐標籤與禮盒包裝，大多出自她的手。喜歡自然光和留白。',
    bio: [
      '雅筑在臺南念設計，畢業後接案拍食物攝影。第一次來山嵐是為了拍一組茶葉照片，結果被焙茶室清晨的光線留了下來。',
      '她重新設計了山嵐的茶罐標籤：用直書的茶名、一種主色，讓人一眼就認出是哪一款茶。拍照時她堅持用自然光，照片裡的茶湯顏色，就是您泡出來的顏色。',
    ],
    favouriteTea: '紅玉紅茶，聞起來像肉桂和薄荷',
    portrait: {
      background: '#F3E6C9',
      skin: '#EDC8AA',
      hair: '#5A3A26',
      hairStyle: 'ponytail',
      clothing: '#B7793B',
      accessory: 'none',
      alt: '綁著馬尾、穿琥珀色上衣的女性插畫肖像',
    },
  },
  {
    slug: 'su-wen-bin',
    name: '蘇文彬',
    role: '茶園管理',
    department: '茶園',
    summary: '照顧凍頂山上的自家茶園，也負責和各山頭的合作茶農聯繫。一年有一半時間在山上。',
    bio: [
      '文彬伯是陳金水的老朋友，在鹿谷種了三十多年的茶。自家茶園交給兒子後，他被陳家請來管理山嵐的茶園。',
      '他每天清晨上山巡園，看葉色、看土壤、看天氣，決定什麼時候採收。合作茶農都說，文彬伯看一眼茶芽，就知道今年的茶會不會好。',
      '這幾年他帶著茶園慢慢改成友善耕作，不用除草劑，改用人工割草。他說茶樹跟人一樣，吃得乾淨，才長得健康。',
    ],
    favouriteTea: '自家茶園的凍頂春茶，用大茶壺泡',
    portrait: {
      background: '#E2E8D4',
      skin: '#C99472',
      hair: '#8A8580',
      hairStyle: 'bald',
      clothing: '#6B7B4B',
      accessory: 'none',
      alt: '光頭、兩側留著灰白短髮、穿橄欖綠上衣的年長男性插畫肖像',
    },
  },
];

export const DEMO_MASTERS: SeedMaster[] = [
  {
    slug: 'chen-jia-he',
    name: '陳家和',
    title: '焙茶師傅',
    years: 39,
    summary: '山嵐第二代，退伍後就跟著父親顧炭爐，焙茶近四十年。專利分段炭焙法就是他試出來的。',
    bio: [
      '陳家和是創辦人陳金水的兒子。1987 年茶行開業那年，他剛退伍，每天晚上陪父親守著炭焙爐，學看炭色、聽茶葉在焙籠裡的聲音。',
      '2004 年他正式接手焙茶，開始思考：能不能讓重焙的茶火香沉穩，卻不燥口？他花了五年反覆試驗，把一次焙完改成分七段、每段之間讓茶葉靜置回潤，前後 21 天。這套分段炭焙法在 2016 年取得發明專利。',
      '他焙茶時很少說話，只在試泡時說一句「可以」或「再一段」。現在他仍然每天清晨五點進焙茶室，也開始帶年輕學徒，希望把手感一點一點傳下去。',
    ],
    specialties: ['龍眼木炭焙火', '分段炭焙 21 天', '凍頂烏龍', '陳年茶回焙'],
    quote: '焙茶跟做人一樣，急不得。茶葉會告訴您什麼時候好了。',
    relatedProductSlugs: ['dongding-oolong', 'master-roasted-old-bush-oolong', 'charcoal-roasted-tieguanyin'],
    portrait: {
      background: '#EFE2D0',
      skin: '#D4A07E',
      hair: '#C9CBC7',
      hairStyle: 'grey-short',
      clothing: '#4E3B2F',
      accessory: 'apron',
      alt: '灰白短髮、穿深褐色上衣並繫著焙茶圍裙的年長男性插畫肖像',
    },
  },
  {
    slug: 'lin-xiu-qin',
    name: '林秀琴',
    title: '評茶師傅',
    years: 28,
    summary: '山嵐的評茶師。每一批茶上架前都由她試泡、評分，並親手寫下茶單。',
    bio: [
      '林秀琴出身嘉義茶農家庭，年輕時在茶葉比賽擔任評審助理，一天要試泡上百杯茶。2014 年她加入山嵐，把這套嚴格的評茶方法帶進焙茶室。',
      '她評茶只用白瓷蓋碗與固定的水溫、時間，依外觀、香氣、滋味、茶湯與葉底逐項記錄。不合格的批次，就算茶農是老朋友也不收。',
      '禮盒裡的手寫茶單也是她寫的。她說：「每一張茶單都是喝過這批茶才寫的，寫不出好話的茶，就不該賣。」',
    ],
    specialties: ['高山烏龍評鑑', '感官品評與茶單撰寫', '春冬茶比對', '茶農收購把關'],
    quote: '好的高山茶，放涼了也不澀。涼了再喝一口，最能看出它的底子。',
    relatedProductSlugs: [
      'dayuling-high-mountain-oolong',
      'lishan-high-mountain-oolong',
      'shanlinxi-high-mountain-oolong',
      'alishan-jinxuan-oolong',
    ],
    portrait: {
      background: '#DDE7E9',
      skin: '#EFCBB0',
      hair: '#2E2622',
      hairStyle: 'bun',
      clothing: '#2E5039',
      accessory: 'glasses',
      alt: '盤起髮髻、戴圓框眼鏡、穿深綠色上衣的女性插畫肖像',
    },
  },
  {
    slug: 'huang-bo-jun',
    name: '黃柏鈞',
    title: '茶席老師',
    years: 18,
    summary: '在臺中品茶室與鹿谷開設茶席課。擅長用簡單的器具，教您在家泡出好喝的茶。',
    bio: [
      '黃柏鈞原本在臺中經營咖啡館，因為一杯東方美人愛上台灣茶，之後跟著多位老師學習茶藝，2016 年起在山嵐開課。',
      '他的課沒有繁複的規矩。第一堂課只教三件事：水溫、茶量與時間。學員常說，上完課回家，終於知道為什麼自己泡的茶會苦。',
      '2023 年臺中品茶室開幕後，他每週末在那裡帶茶席課，也參與山嵐冷泡瓶的試用與沖泡指南編寫。',
    ],
    specialties: ['茶席設計', '蓋碗與小壺沖泡', '冷泡茶教學', '東方美人與紅茶沖泡'],
    quote: '水溫低一點，蜜香就出來了。泡茶不難，先從喜歡喝開始。',
    relatedProductSlugs: [
      'oriental-beauty-oolong',
      'porcelain-gaiwan',
      'tasting-cup-set',
      'shanlan-cold-brew-bottle',
    ],
    portrait: {
      background: '#E6E1D6',
      skin: '#E3B896',
      hair: '#2A2420',
      hairStyle: 'short',
      clothing: '#7A6A55',
      accessory: 'scarf',
      alt: '短髮、圍著米色圍巾、穿卡其色上衣的男性插畫肖像',
    },
  },
  {
    slug: 'jian-guo-dong',
    name: '簡國棟',
    title: '鶯歌壺藝師',
    years: 31,
    summary: '鶯歌手拉坯壺藝師，山嵐合作超過十年的夥伴。朱泥壺與品茗杯都出自他的工作室。',
    bio: [
      '簡國棟 17 歲進鶯歌的陶瓷工廠當學徒，後來自立門戶，專做手拉坯朱泥壺。他的壺壁薄、出水順，斷水俐落，是許多茶人的日常用壺。',
      '和山嵐的合作從 2014 年開始。陳家和師傅帶著自家的高山茶到鶯歌，兩人一邊泡茶一邊調整壺型，最後做出適合高山烏龍的 150 ml 與 220 ml 朱泥壺。',
      '現在他的工作室也和鶯歌的白瓷師傅合作，製作山嵐的蓋碗與品茗杯組。每一件作品出窯後，他都會親自泡一壺茶試過，才交給山嵐。',
    ],
    specialties: ['朱泥手拉坯', '壺型與出水設計', '白瓷杯器合作開發'],
    quote: '壺是給茶用的。茶泡得好喝，壺才算做好了。',
    relatedProductSlugs: ['yingge-zhuni-teapot', 'porcelain-gaiwan', 'tasting-cup-set'],
    portrait: {
      background: '#F2E1D3',
      skin: '#CF9A78',
      hair: '#3B332D',
      hairStyle: 'bald',
      clothing: '#A4532F',
      accessory: 'glasses',
      alt: '光頭、戴眼鏡、穿朱泥紅色工作服的男性插畫肖像',
    },
  },
];

export const DEMO_JOBS: SeedJob[] = [
  {
    slug: 'roasting-apprentice',
    title: '焙茶學徒',
    department: '焙茶室',
    location: '南投縣鹿谷鄉',
    type: '全職',
    posted: '2026-10-20',
    summary:
      '跟著陳家和師傅學習龍眼木炭焙茶，從顧炭、翻茶到試泡，一步一步學會分段炭焙。適合願意長期待在鹿谷、對焙茶有熱情的您。',
    responsibilities: [
      '協助焙茶室日常作業：備炭、起火、顧爐與清潔焙籠。',
      '依師傅指示翻茶、記錄每一段焙火的溫度與時間。',
      '參與每日試泡，學習辨識焙火程度與茶況。',
      '協助茶葉入庫、分裝與庫存盤點。',
    ],
    requirements: [
      '不需焙茶經驗，但須對茶有興趣，願意從基礎學起。',
      '可配合焙茶季節輪班，春、冬茶季偶有夜間顧爐。',
      '能搬運 20 公斤茶袋，不怕熱。',
      '做事細心，習慣把過程記錄下來。',
    ],
    benefits: [
      '月薪 NT$33,000 起，依學習進度每半年調整。',
      '依法投保勞健保、提撥勞退 6%。',
      '供午餐，外地同仁可申請鹿谷員工宿舍。',
      '員工購茶 7 折，年節另有禮金與茶葉禮盒。',
    ],
  },
  {
    slug: 'online-customer-service',
    title: '網路商店客服專員',
    department: '客服',
    location: '南投縣鹿谷鄉（每週可遠端 2 天）',
    type: '全職',
    posted: '2026-11-03',
    summary: '回覆網路商店的電話、訊息與電子郵件，協助訂單、配送與退換貨問題，也幫客人挑選適合的茶。',
    responsibilities: [
      '於週一至週五 09:00–18:00 回覆電話、線上訊息與電子郵件。',
      '處理訂單查詢、配送異常、退換貨與發票問題。',
      '依客人的喜好與預算推薦茶款與禮盒。',
      '整理常見問題，與店長一起更新商品頁與說明文字。',
    ],
    requirements: [
      '一年以上客服或門市工作經驗。',
      '文字表達清楚、語氣溫和，能用簡短的話說明複雜的事。',
      '熟悉電子郵件與試算表的基本操作。',
      '喜歡喝茶者佳，到職後會安排評茶與沖泡訓練。',
    ],
    benefits: [
      '月薪 NT$34,000–38,000，依經驗調整。',
      '週休二日，國定假日依法休假。',
      '依法投保勞健保、提撥勞退 6%。',
      '每季評茶課程，員工購茶 7 折。',
    ],
  },
  {
    slug: 'taichung-tasting-room-part-time',
    title: '品茶室兼職服務人員',
    department: '品茶室',
    location: '臺中市西區（臺中品茶室）',
    type: '兼職',
    posted: '2026-11-10',
    summary: '在臺中品茶室接待客人、泡茶與整理茶席，週末協助黃柏鈞老師的茶席課。',
    responsibilities: [
      '接待來店客人，介紹當季茶款並協助試飲。',
      '沖泡茶飲、整理茶席與清洗茶器。',
      '週末茶席課的場地布置與課後整理。',
      '門市收銀、禮盒包裝與庫存補貨。',
    ],
    requirements: [
      '每週可排班 3 天以上，其中須含週六或週日。',
      '親切有耐心，喜歡與人聊天。',
      '無泡茶經驗可，到職後由品茶室主理人帶領訓練。',
    ],
    benefits: ['時薪 NT$210 起，另有週末加給。', '依法投保勞健保。', '免費參加品茶室茶席課，員工購茶 7 折。'],
  },
  {
    slug: 'marketing-design-intern',
    title: '行銷設計實習生',
    department: '品牌設計',
    location: '南投縣鹿谷鄉（可部分遠端）',
    type: '實習',
    posted: '2026-09-15',
    summary: '與攝影與視覺設計許雅筑一起工作，參與商品拍攝、社群圖文與年節禮盒的設計。實習期間 6 個月。',
    responsibilities: [
      '協助商品拍攝與修圖，維持網站照片色調一致。',
      '製作社群貼文、電子報與活動頁的圖文。',
      '參與新春禮盒與茶罐標籤的設計提案。',
      '整理品牌素材庫與拍攝紀錄。',
    ],
    requirements: [
      '大專院校設計、傳播或相關科系在學生或應屆畢業生。',
      '熟悉影像編輯與排版軟體，請附作品集。',
      '每週可實習 3 天，並可配合每月 1–2 次到鹿谷拍攝。',
    ],
    benefits: [
      '時薪 NT$200，依法投保勞健保。',
      '到鹿谷拍攝的交通費實報實銷。',
      '實習結束提供實習證明，表現優異者可轉為正職。',
    ],
  },
];

export const DEMO_MEDIA: SeedMedia[] = [
  {
    slug: 'three-generations-of-charcoal',
    type: 'article',
    title: '鹿谷三代人，守著一座龍眼木炭爐',
    source: '《小日子》',
    date: '2023-04-18',
    summary:
      '從 1987 年的小茶行到第三代返鄉開網路商店，記者走訪山嵐茶事的焙茶室，記錄一家人如何在炭火旁延續凍頂烏龍的老味道。',
    url: 'https://example.com/press/xiaorizi-shanlan-charcoal',
  },
  {
    slug: 'staged-roasting-patent',
    type: 'article',
    title: '21 天的焙火：一項寫進專利的手藝',
    source: '《食力》',
    date: '2023-09-06',
    summary:
      '山嵐茶事第二代陳家和花五年試出分段炭焙法，並取得發明專利。報導介紹七段焙火之間的回潤過程，以及專利寫不下的師傅手感。',
    url: 'https://example.com/press/foodnext-staged-roasting',
  },
  {
    slug: 'roastery-documentary',
    type: 'video',
    title: '焙茶室的一夜：跟著師傅顧炭爐',
    source: '公視',
    date: '2024-01-12',
    summary: '影片跟拍冬茶焙火季的一個夜晚，從起火、翻茶到清晨試泡，看陳家和師傅如何靠聲音與香氣判斷茶況。',
    url: 'https://www.youtube.com/watch?v=q7Lm2xR9sTa',
    videoId: 'q7Lm2xR9sTa',
  },
  {
    slug: 'family-business-going-online',
    type: 'article',
    title: '老茶行上網賣茶，先把茶單寫清楚',
    source: '《天下雜誌》',
    date: '2024-05-27',
    summary:
      '第三代負責人陳以安分享經營網路商店的做法：標示產地、海拔、採收季與焙火程度，讓不懂茶的人也能放心選購。',
    url: 'https://example.com/press/cw-shanlan-online-shop',
  },
  {
    slug: 'cold-brew-bottle-design',
    type: 'article',
    title: '從客人的一句抱怨，做出一支冷泡瓶',
    source: '《設計日常》',
    date: '2024-08-14',
    summary:
      '為了解決冷泡茶越放越澀的問題，山嵐與玻璃廠合作兩年，設計出可拉起停泡的濾芯並取得新型專利。報導記錄從手繪草圖到量產的過程。',
    url: 'https://example.com/press/design-daily-cold-brew-bottle',
  },
  {
    slug: 'nantou-tea-trail',
    type: 'video',
    title: '南投茶鄉慢遊：鹿谷的焙茶香',
    source: '南投縣政府觀光影音',
    date: '2024-11-02',
    summary: '介紹鹿谷茶鄉的旅遊影片，走訪凍頂山茶園與山嵐茶事的焙茶室，並在品茶室體驗一席凍頂烏龍。',
    url: 'https://www.youtube.com/watch?v=Hn3vK8pWd4E',
    videoId: 'Hn3vK8pWd4E',
  },
  {
    slug: 'tea-judge-interview',
    type: 'article',
    title: '一天試泡上百杯：評茶師的耳朵與舌頭',
    source: '《茶與生活》月刊',
    date: '2025-03-20',
    summary:
      '專訪山嵐評茶師林秀琴，談她如何用白瓷蓋碗逐項評茶、為每一批茶寫下茶單，以及為什麼寧可不收也不降低標準。',
    url: 'https://example.com/press/tea-life-judge-interview',
  },
  {
    slug: 'taichung-tasting-room',
    type: 'article',
    title: '在臺中巷弄裡，上一堂不講規矩的茶席課',
    source: '《中部旅行》',
    date: '2025-07-09',
    summary:
      '走訪山嵐臺中品茶室，黃柏鈞老師從水溫、茶量與時間教起，讓第一次接觸台灣茶的人，也能在家泡出好喝的烏龍。',
    url: 'https://example.com/press/central-travel-tasting-room',
  },
  {
    slug: 'cold-brew-at-home',
    type: 'video',
    title: '三步驟在家冷泡高山茶',
    source: '「山城慢遊」頻道',
    date: '2025-12-05',
    summary: '黃柏鈞老師示範用山嵐冷泡瓶與高山烏龍冷泡茶包，在家做出清甜不澀的冷泡茶，並說明停泡的時機。',
    url: 'https://www.youtube.com/watch?v=Zc5tY1bQe0M',
    videoId: 'Zc5tY1bQe0M',
  },
  {
    slug: 'yingge-teapot-partnership',
    type: 'article',
    title: '鶯歌壺藝師與鹿谷焙茶人的十年之約',
    source: '《陶藝生活誌》',
    date: '2026-06-16',
    summary:
      '鶯歌壺藝師簡國棟與山嵐合作超過十年，兩人一邊泡茶一邊調整壺型，做出適合高山烏龍的朱泥壺。報導記錄一把壺從拉坯到試茶的過程。',
    url: 'https://example.com/press/ceramics-life-yingge-teapot',
  },
];
