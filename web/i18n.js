// The web client's own words in English and Korean (the API's words come from the API itself,
// asked in the same language: api.js sends it as Accept-Language, streams as ?lang=). The
// English sentence is the key; Korean gives its translation, with {name} placeholders. The
// language is the one chosen with the switch (kept in localStorage), else the browser's first
// language this client speaks, else English. Importing this module sets <html lang>,
// translates the page's marked elements ([data-i18n], [data-i18n-label]) and adds the switch.

export const LANGUAGES = { en: "English", ko: "한국어" };
const CHOSEN = "gameserver.lang";

const KO = {
  // the pages' fixed texts
  "← Lobby": "← 로비",
  "Game server": "게임 서버",
  "Game server — lobby": "게임 서버 — 로비",
  "API": "개발자 문서",
  // people around the table (issue 53): friends, groups, privacy, seasons (social.js, ratings.js)
  "Friends": "친구", "Groups": "그룹", "Followers": "팔로워", "Following": "팔로잉", "Privacy": "공개 범위",
  "Two players who follow each other are friends.": "서로 팔로우하는 두 플레이어는 친구입니다.",
  "No friends yet: follow a player from their profile.": "아직 친구가 없습니다. 플레이어의 프로필에서 팔로우하세요.",
  "Nobody follows you yet.": "아직 나를 팔로우하는 사람이 없습니다.",
  "You follow nobody yet.": "아직 아무도 팔로우하지 않습니다.",
  "Play a game first: the lobby makes your player, then your friends and groups appear here.": "먼저 게임을 한 판 해 보세요. 로비에서 내 플레이어가 만들어지면 친구와 그룹이 여기에 나옵니다.",
  "a player no longer known": "더 이상 없는 플레이어",
  "Game for a challenge": "도전할 게임", "Challenge": "도전하기", "Follow": "팔로우", "Follow back": "맞팔로우", "Unfollow": "팔로우 취소",
  "Block": "차단", "Unblock": "차단 해제", "friend": "친구",
  "playing now": "게임 중", "online": "접속 중", "watch": "관전",
  "You and {name}": "나와 {name}", "Your friends": "내 친구", "Challenges for you": "나에게 온 도전", "Open the game": "게임 열기",
  "Decline": "거절", "You declined the challenge.": "도전을 거절했습니다.",
  "You follow {name}.": "{name} 님을 팔로우합니다.", "You no longer follow {name}.": "{name} 님을 더 이상 팔로우하지 않습니다.",
  "You blocked {name}.": "{name} 님을 차단했습니다.", "You unblocked {name}.": "{name} 님의 차단을 풀었습니다.",
  "Your groups": "내 그룹", "You are in no group yet.": "아직 속한 그룹이 없습니다.", "New group": "새 그룹",
  "Name": "이름", "Description": "설명", "Who may join": "가입할 수 있는 사람", "public: anyone joins": "공개: 누구나 가입",
  "Create the group": "그룹 만들기", "Group": "그룹", "About": "소개", "Members": "회원",
  "Join the group": "그룹 가입", "Leave the group": "그룹 나가기", "Invite": "초대", "Whom to invite": "초대할 사람",
  "Follow players first: the players you follow or who follow you can be invited.": "먼저 플레이어를 팔로우하세요. 내가 팔로우하거나 나를 팔로우하는 플레이어를 초대할 수 있습니다.",
  "Invited: they join from their groups' invitation.": "초대했습니다. 상대가 초대를 받아들이면 가입됩니다.",
  "Only its members see who they are.": "회원 명단은 회원만 볼 수 있습니다.",
  "The group's games": "그룹 게임", "No game waits for the group's members.": "그룹 회원을 기다리는 게임이 없습니다.",
  "New game for the group": "그룹 게임 만들기", "{n} members": "회원 {n}명", "{n} free seats": "빈자리 {n}개",
  "owner": "그룹장", "admin": "관리자", "member": "회원",
  // chat (issue 53): a game's table and spectators' chat, direct messages, a group's chat (chat.js, messages.js), a player's menu (person.js)
  "Chat": "채팅", "Table chat": "테이블 채팅", "Spectators' chat": "관전자 채팅", "The game's chat": "게임 채팅",
  "Message to the table": "테이블에 보낼 메시지", "Message to the other spectators": "다른 관전자에게 보낼 메시지",
  "Message to the group": "그룹에 보낼 메시지", "Message to {name}": "{name} 님에게 보낼 메시지", "Message": "메시지 보내기",
  "Messages": "메시지함", "Conversations": "대화 목록", "Conversation with {name}": "{name} 님과의 대화",
  "No conversation yet: write to a friend from the friends page.": "아직 대화가 없습니다. 친구 페이지에서 친구에게 메시지를 보내세요.",
  "Earlier messages": "이전 메시지", "No messages yet.": "아직 메시지가 없습니다.", "Send": "보내기",
  "{n} of {max} characters": "{n}/{max}자",
  "Play a game first: the lobby makes your player, then you can write.": "먼저 게임을 한 판 해 보세요. 로비에서 내 플레이어가 만들어지면 글을 쓸 수 있습니다.",
  "{name}: mute, block or report": "{name}: 숨기기, 차단, 신고", "Mute, block or report:": "숨기기, 차단, 신고:",
  "Profile": "프로필", "Mute": "숨기기", "Unmute": "숨기기 해제",
  "You muted {name}: their messages are hidden from you.": "{name} 님의 메시지를 숨겼습니다.", "You unmuted {name}.": "{name} 님의 메시지를 다시 봅니다.",
  "Block {name}? You will not meet or read each other.": "{name} 님을 차단할까요? 서로 만나거나 상대의 메시지를 읽을 수 없습니다.",
  "Report this message: why?": "이 메시지를 신고하는 이유", "Report this player: why?": "이 플레이어를 신고하는 이유",
  "Send the report": "신고하기", "Report sent: the moderators will look at it.": "신고했습니다. 운영자가 살펴봅니다.",
  "The group's chat": "그룹 채팅",
  "Who may follow me": "나를 팔로우할 수 있는 사람", "Who may challenge me": "나에게 도전할 수 있는 사람", "Who may message me": "나에게 메시지를 보낼 수 있는 사람",
  "everyone": "모두", "friends only": "친구만", "nobody": "아무도 없음", "Saved.": "저장했습니다.",
  "Season": "시즌", "Seasons": "시즌", "All time": "전체 기간", "{month} (this season)": "{month} (이번 시즌)",
  "rank {rank}, rating {rating}, {n} games, {w} wins": "{rank}위, 레이팅 {rating}, {n}게임 {w}승", "season's table": "시즌 순위표",
  // the tournaments' pages (issue 52: tournaments.js)
  "Tournaments": "토너먼트", "Tournament": "토너먼트", "← Tournaments": "← 토너먼트", "All games": "모든 게임",
  "Upcoming": "시작 전", "Running": "진행 중", "Finished": "끝남", "None.": "없습니다.", "New tournament": "새 토너먼트",
  "Format": "방식", "Swiss": "스위스", "Arena": "아레나", "Round robin": "리그전",
  "Swiss: rounds of players with close scores": "스위스: 점수가 비슷한 플레이어끼리 라운드마다 대국",
  "Arena: play again as soon as a game ends, for a set time": "아레나: 정해진 시간 동안 게임이 끝나는 대로 다시 대국",
  "Round robin: everyone meets everyone": "리그전: 모두가 모두와 대국",
  "Players a table": "테이블당 인원", "Rounds": "라운드 수", "Length in minutes": "길이 (분)", "Start": "시작",
  "now": "지금", "in 5 minutes": "5분 뒤", "in 15 minutes": "15분 뒤", "in an hour": "1시간 뒤",
  "Rated": "레이팅 반영", "I play too": "나도 참가", "Bots entered": "참가하는 봇", "Create the tournament": "토너먼트 만들기",
  "{game}, {format}": "{game}, {format}", "{game}, {format}.": "{game}, {format}.", "{n} entrants": "참가자 {n}명",
  "Tournament: {game}, {format}": "토너먼트: {game}, {format}",
  "Finished {ago}.": "{ago} 끝났습니다.", "Starts in {d}.": "{d} 뒤에 시작합니다.", "Ends in {d}.": "{d} 뒤에 끝납니다.",
  "Time is up: the last games end.": "시간이 다 되었습니다. 남은 게임이 끝나는 중입니다.",
  "Round {n} of {total}.": "{total}라운드 중 {n}라운드.", "Round {n}.": "{n}라운드.", "({at})": "({at})",
  "When": "일정", "Standings": "순위", "Current round": "현재 라운드", "Points": "점수", "Games played": "게임 수",
  "Buchholz (opponents' points)": "부흐홀츠 (상대들의 점수)", "Median Buchholz": "중앙 부흐홀츠",
  "Opponents' places": "상대들의 순위 합", "Head to head": "맞대결 결과",
  "Buchholz": "부흐홀츠", "Median": "중앙값", "Opp. places": "상대 순위", "H2H": "맞대결",
  "(withdrawn)": "(기권)", "(voided)": "(무효)", "(its game is being made)": "(게임을 만드는 중)",
  "No round is paired yet.": "아직 짝지은 라운드가 없습니다.", "No game is being played now.": "지금 진행 중인 게임이 없습니다.",
  "Play your game": "내 게임 두기", "Table {n}: {who}": "{n}번 테이블: {who}", "{place} {name}": "{place} {name}", "place {n}": "{n}위",
  "Bye: {who}.": "부전승: {who}.",
  "You are in.": "참가 중입니다.", "You withdrew.": "기권했습니다.", "Withdraw": "기권하기", "Join the tournament": "토너먼트 참가",
  "You are in the tournament.": "토너먼트에 참가했습니다.", "You withdrew from the tournament.": "토너먼트에서 기권했습니다.",
  "The game's leaderboard this season": "이번 시즌 이 게임의 순위표",
  "The whole history (every pairing, recomputable)": "전체 기록 (모든 대진을 다시 계산할 수 있음)",
  "Games for {d}: a player who finishes is paired again with idle players of close standing (never the same opponent twice in a row); {n} straight wins and the next wins count double.": "{d} 동안 대국합니다. 게임을 마친 플레이어는 쉬고 있는 비슷한 순위의 플레이어와 다시 짝지어집니다 (같은 상대와 연달아 두지 않음). {n}연승부터는 다음 승리의 점수가 두 배입니다.",
  "{n} rounds; each round puts players with close scores (then ratings) together, avoiding repeat opponents.": "{n}라운드. 라운드마다 점수가 (다음으로 레이팅이) 비슷한 플레이어끼리 짝짓고, 이미 만난 상대는 되도록 피합니다.",
  "Every pair of players meets as evenly as the numbers allow ({n} rounds).": "인원이 허락하는 한 모든 플레이어가 고르게 만납니다 ({n}라운드).",
  "{n} players a table (at least {min}).": "테이블당 {n}명 (최소 {min}명).", "{n} players a table.": "테이블당 {n}명.",
  "At a table of {n}, points by place: {points}.": "{n}명 테이블의 순위별 점수: {points}.",
  "A bye is worth {n} points.": "부전승은 {n}점입니다.", "Late joining is allowed, worth {n} points.": "늦은 참가를 받으며, {n}점으로 시작합니다.",
  "No late joining.": "늦은 참가는 받지 않습니다.", "Ties are broken by: {list}.": "동점일 때 가리는 순서: {list}.",
  "Rated: the games count for the ratings.": "레이팅 반영: 게임이 레이팅에 반영됩니다.",
  "Casual: the games are not rated.": "친선: 게임이 레이팅에 반영되지 않습니다.",
  "Each game has a clock; a player whose time runs out {n} times is withdrawn.": "게임마다 시계가 있습니다. 시간이 {n}번 다 된 플레이어는 기권 처리됩니다.",
  "Entry: a rating from {min} to {max}.": "참가 조건: 레이팅 {min}에서 {max}까지.", "Entry: by invitation only.": "참가 조건: 초대받은 사람만.",
  "Entry: members of a group only.": "참가 조건: 그룹 회원만.",
  // the moderators' page (issue 50: moderation.js)
  "Moderation": "운영 관리", "Fair-play flags": "공정 플레이 신호", "Chat reports": "채팅 신고",
  "Each flag is evidence for you to judge: nothing happens by itself. A void stops the player's rated games counting and re-rates everyone; its undo counts them again.": "각 신호는 판단을 위한 근거일 뿐이며 저절로 처리되는 것은 없습니다. 무효 처리하면 그 플레이어의 레이팅 게임이 반영되지 않고 모두의 레이팅을 다시 계산합니다. 되돌리면 다시 반영합니다.",
  "Boosting: many fast wins": "부스팅: 빠른 승리가 많음", "Sandbagging: many fast losses": "샌드배깅: 빠른 패배가 많음",
  "Fast wins over one and the same opponent": "같은 상대에게 거둔 빠른 승리", "Accounts seen at one address": "같은 주소에서 본 계정",
  "Accounts made with one device's key": "한 기기의 키로 만든 계정", "Accounts of one sign-in identity": "같은 로그인 신원의 계정",
  "Decisions explained by hidden information": "숨은 정보로 설명되는 선택", "One player often last where another wins": "한 플레이어가 이길 때 다른 플레이어가 자주 꼴찌",
  "Fast results": "빠른 결과", "Results counted": "센 결과", "Fast wins": "빠른 승리", "Accounts": "계정 수", "Decisions": "선택 수",
  "Log-likelihood ratio": "로그 가능도비", "Decisions needed": "필요한 선택 수",
  "Decisions where the two searches differ": "두 탐색이 다른 선택", "Played the hidden state's best move": "숨은 정보 기준 최선의 수를 둠",
  "Played the seat's best move": "자리에서 보이는 정보 기준 최선의 수를 둠", "Games together": "함께한 게임",
  "Wins while the other was last": "상대가 꼴찌일 때 승리", "Chance by luck alone": "우연일 확률", "Warning at": "경고 기준", "Flag at": "신호 기준",
  "Games:": "게임:", "game {n}": "게임 {n}", "Flag": "신호", "Warning": "경고", "voided": "무효 처리됨", "Reason": "사유",
  "Void their rated games": "레이팅 게임 무효 처리", "Undo the void": "무효 처리 되돌리기",
  "Give a reason first: it is kept with the action.": "먼저 사유를 적어 주세요. 사유는 조치와 함께 기록됩니다.",
  "{name}'s rated games are voided: {n} ratings re-rated.": "{name} 님의 레이팅 게임을 무효 처리했습니다. 레이팅 {n}개를 다시 계산했습니다.",
  "{name}'s rated games count again: {n} ratings re-rated.": "{name} 님의 레이팅 게임이 다시 반영됩니다. 레이팅 {n}개를 다시 계산했습니다.",
  "No flags: nothing to judge now.": "신호가 없습니다. 지금 판단할 것이 없습니다.",
  "Suspended from": "정지할 기능", "For": "기간", "chat": "채팅", "play": "게임", "1 hour": "1시간", "1 day": "1일", "7 days": "7일", "30 days": "30일",
  "Done.": "처리했습니다.", "Reported for:": "신고 사유:", "The game": "해당 게임", "Hide the message": "메시지 숨기기",
  "Suspend": "정지", "Dismiss": "기각", "No open reports.": "처리할 신고가 없습니다.",
  "This page is for moderators: play a game first, then ask the operator for the role.": "운영자 전용 페이지입니다. 먼저 게임을 한 판 한 뒤 서버 관리자에게 권한을 요청하세요.",
  "This page is for moderators only. The server's operator grants the role; ask them if you should have it.": "운영자만 볼 수 있는 페이지입니다. 권한은 서버 관리자가 줍니다. 권한이 있어야 한다면 관리자에게 문의하세요.",
  "Moderation (moderators only)": "운영 관리 (운영자 전용)",
  "Language": "언어",
  "Loading…": "불러오는 중…",
  "Your recovery code": "복구 코드",
  "Write it down and keep it safe: it gets this player back on another device if this browser's key is lost. It is shown only now.": "적어서 안전하게 보관하세요. 이 브라우저의 키를 잃어도 다른 기기에서 이 플레이어를 되찾을 수 있습니다. 지금 한 번만 보여 줍니다.",
  "I wrote it down": "적어 두었습니다",
  "Waiting": "대기 중",
  "New game": "새 게임",
  "Game": "게임",
  "Your name": "이름",
  "Seats": "자리",
  "Add a seat": "자리 추가",
  "Options": "옵션",
  "Create the game": "게임 만들기",
  "Games": "게임 목록",
  "Refresh": "새로 고침",
  "Your games": "내 게임",
  "Open: join": "참가 가능",
  "Live: play or watch": "진행 중: 두기 또는 관전",
  "Finished: replay": "끝난 게임: 다시 보기",
  "Open a game by id": "게임 id로 열기",
  "Open": "열기",
  "You": "나",
  "Your player key (to come back from another browser)": "플레이어 키 (다른 브라우저에서 돌아오기)",
  "The key opens every game you sit in: keep it secret. This browser keeps it.": "키는 내가 앉은 모든 게임을 엽니다: 비밀로 하세요. 이 브라우저가 보관합니다.",
  "Show my key": "내 키 보기",
  "Use a key from another browser": "다른 브라우저의 키 사용",
  "Use this key": "이 키 사용",
  "Hosted games": "제공되는 게임",
  "Your keys, passkeys and recovery code": "내 키, 패스키, 복구 코드",
  "Private game (not listed in the lobby)": "비공개 게임 (로비에 나오지 않음)",
  "Skip to your moves": "내 수로 건너뛰기",
  "Board": "보드",
  "Replay this game": "이 게임 다시 보기",
  "Your moves": "내 수",
  "Your seat": "내 자리",
  "Last events": "최근 이벤트",
  "Rules": "규칙",
  "Rules of this game": "이 게임의 규칙",
  "Pieces": "말과 카드",
  "Replay controls": "다시 보기 조작",
  "First move": "첫 수",
  "Previous move": "이전 수",
  "Play": "재생",
  "Pause": "일시 정지",
  "Next move": "다음 수",
  "Last move": "마지막 수",
  "Speed": "속도",
  "slow (2 s)": "느리게 (2초)",
  "1 s": "1초",
  "fast (0.4 s)": "빠르게 (0.4초)",
  "very fast": "아주 빠르게",
  "Move": "수",
  "Events": "이벤트",
  "Player": "플레이어",
  "Leaderboard": "순위표",
  "Show provisional ratings (few games yet)": "임시 레이팅도 보기 (아직 게임 수가 적음)",
  "Rating": "레이팅",
  "Wins": "승",
  "More…": "더 보기…",
  "Leaderboard: {type}": "순위표: {type}",
  "Nobody is rated yet.": "아직 레이팅을 받은 사람이 없습니다.",
  "Nobody has an established rating yet: show the provisional ones.": "아직 확정된 레이팅이 없습니다: 임시 레이팅을 보세요.",
  "one game so far": "지금까지 한 게임",
  "Rating from {from} to {to} over {n} games": "{n}게임 동안 레이팅 {from}에서 {to}(으)로",
  "{n} games, {w} wins": "{n}게임, {w}승",
  "leaderboard": "순위표",
  "No rated game yet.": "아직 레이팅 게임이 없습니다.",
  // the status area and the connection badge
  "live": "실시간",
  "reconnecting…": "다시 연결 중…",
  "offline": "오프라인",
  "finished": "종료",
  "The server cannot be reached right now: retrying.": "지금 서버에 연결할 수 없습니다: 다시 시도하는 중입니다.",
  "The live updates stopped: reconnecting.": "실시간 소식이 끊겼습니다: 다시 연결하는 중입니다.",
  "You are offline: the page reconnects when the network is back.": "오프라인입니다: 네트워크가 돌아오면 다시 연결합니다.",
  "The server cannot be reached.": "서버에 연결할 수 없습니다.",
  "You are offline: try again when the network is back.": "오프라인입니다: 네트워크가 돌아오면 다시 해 보세요.",
  "Sending…": "보내는 중…",
  "Played.": "두었습니다.",
  "The game moved on: the moves were refreshed, choose again.": "게임이 이미 진행되었습니다: 수 목록을 새로 고쳤으니 다시 고르세요.",
  "Joining…": "참가하는 중…",
  "Creating…": "만드는 중…",
  "{label}: done.": "{label}: 완료.",
  "Too many requests: wait {s} s.": "요청이 너무 많습니다: {s}초 기다리세요.",
  // the API's refusals, as a person reads them
  "Someone moved first: the board was refreshed, choose again.": "다른 사람이 먼저 두었습니다: 보드를 새로 고쳤으니 다시 고르세요.",
  "It is not your turn: wait for the others.": "내 차례가 아닙니다: 다른 사람을 기다리세요.",
  "Too many requests: wait {s} s and try again.": "요청이 너무 많습니다: {s}초 기다린 뒤 다시 하세요.",
  "a few": "몇",
  "There is no such game (finished games may have expired).": "그런 게임이 없습니다 (끝난 게임은 지워졌을 수 있습니다).",
  "This browser's key for the game is not valid: you are watching.": "이 브라우저의 게임 키가 유효하지 않습니다: 관전 중입니다.",
  "This browser's player key is not known to the server any more: the lobby makes a new player.": "서버가 이 브라우저의 플레이어 키를 더 이상 모릅니다: 로비가 새 플레이어를 만듭니다.",
  "Someone took that seat first: the list was refreshed.": "다른 사람이 먼저 그 자리에 앉았습니다: 목록을 새로 고쳤습니다.",
  "That seat is by invitation: open the invite link the game's creator shared.": "초대받은 사람의 자리입니다: 게임을 만든 사람이 준 초대 링크를 여세요.",
  "You already sit in this game.": "이미 이 게임에 앉아 있습니다.",
  "That seat is kept for another player for a few minutes.": "그 자리는 몇 분 동안 다른 플레이어를 위해 비워 둡니다.",
  "That move is not allowed now: {why}": "지금은 그 수를 둘 수 없습니다: {why}",
  "The server's storage is unavailable: retrying shortly.": "서버의 저장소를 쓸 수 없습니다: 곧 다시 시도합니다.",
  "Your game was found already: opening it.": "이미 게임을 찾았습니다: 여는 중입니다.",
  "There is no such player.": "그런 플레이어가 없습니다.",
  "The server refused: {why}": "서버가 거절했습니다: {why}",
  // seats and people
  "system": "시스템",
  "seat {n}": "{n}번 자리",
  "invited seat (free)": "초대 자리 (비어 있음)",
  "open seat (free)": "열린 자리 (비어 있음)",
  "{name} (bot)": "{name} (봇)",
  "{name} (bot {n})": "{name} (봇 {n})",
  "{who} — you": "{who} — 나",
  "here": "접속 중",
  "away": "자리 비움",
  "{who} has the game open.": "{who} 님이 게임을 열어 두었습니다.",
  "{who} does not have the game open.": "{who} 님이 게임을 열어 두지 않았습니다.",
  // the play page
  "You are watching.": "관전 중입니다.",
  "You play {name}.": "{name}(으)로 두고 있습니다.",
  "Your turn.": "내 차례입니다.",
  "Waiting for {who}.": "{who}을(를) 기다리는 중입니다.",
  "the server (scoring)": "서버 (점수 계산)",
  " and ": " 그리고 ",
  "You are not seated.": "앉아 있지 않습니다.",
  "You sit in seat {n} as {name}.": "{n}번 자리에 {name}(으)로 앉아 있습니다.",
  "Waiting for players: {n} free seats. The game starts when every seat is taken.": "플레이어를 기다리는 중: 빈 자리 {n}개. 모든 자리가 차면 게임이 시작됩니다.",
  "Waiting for players: 1 free seat. The game starts when every seat is taken.": "플레이어를 기다리는 중: 빈 자리 1개. 모든 자리가 차면 게임이 시작됩니다.",
  "Join this seat": "이 자리에 앉기",
  "Leave": "떠나기",
  "Invite link for the invited seats": "초대 자리용 초대 링크",
  "Open seats are listed in the lobby for anyone to join; this page's address works too.": "열린 자리는 로비에 나와 누구나 앉을 수 있습니다. 이 페이지 주소로도 됩니다.",
  "No moves before the game starts.": "게임이 시작되기 전에는 수가 없습니다.",
  "You sit in seat {n}.": "{n}번 자리에 앉았습니다.",
  "You left the seat.": "자리를 떠났습니다.",
  "The game is over.": "게임이 끝났습니다.",
  "Spectators have no moves.": "관전자는 수가 없습니다.",
  "No moves for you now.": "지금은 둘 수가 없습니다.",
  "{plays} plays and {swaps} swaps. Click tiles and squares on the board to find yours.": "놓기 {plays}개, 바꾸기 {swaps}개. 보드의 타일과 칸을 눌러 찾으세요.",
  "Find": "찾기",
  "e.g. buy, red, C2": "예: 구매, 빨강, C2",
  "unselect {r}": "{r} 선택 해제",
  "clear": "모두 해제",
  "{n} of {total} moves": "수 {total}개 중 {n}개",
  " use what you selected": " (선택한 것을 씀)",
  "{n} more: select on the board or type to narrow.": "{n}개 더: 보드에서 고르거나 입력해 좁히세요.",
  "{n} moves:": "수 {n}개:",
  "Move the {figure} ({n} places)": "{figure} 옮기기 ({n}곳)",
  "Move the {figure} ({n} directions)": "{figure} 옮기기 ({n}방향)",
  "Lay the tile ({n} places)": "타일 놓기 ({n}곳)",
  "Kind of move": "수의 종류",
  "Princess": "공주님", "Knight": "기사님", "Dragon": "드래곤", // the server's and the Korean rules' words
  "Ratings: {parts}": "레이팅: {parts}",
  "unrated": "레이팅 없음",
  "Not rated: {why}.": "레이팅에 반영되지 않음: {why}.",
  "the game ended before every seat made its first move": "모든 자리가 첫 수를 두기 전에 게임이 끝났습니다",
  "a casual game": "친선 게임입니다",
  "a private game": "비공개 게임입니다",
  "the game was aborted": "게임이 중단되었습니다",
  "the game was abandoned": "아무도 두지 않아 게임이 끝났습니다",
  "a seat is played without an account": "계정 없이 두는 자리가 있습니다",
  "nobody to be rated against": "겨룰 상대가 없습니다",
  "Clock: {parts}": "시계: {parts}",
  "about {d}": "약 {d}",
  "A bot ({bot}) plays your seat since your time ran out.": "시간이 다 되어 봇({bot})이 내 자리를 두고 있습니다.",
  "Take my seat back": "내 자리 되찾기",
  "Resign": "기권",
  "Resign this game?": "이 게임을 기권할까요?",
  "Abort the game": "게임 중단",
  "End this game for everyone (only before anyone has moved)?": "모두의 게임을 중단할까요 (아무도 두기 전에만 됩니다)?",
  "A bot plays your seat: take it back to play yourself.": "봇이 내 자리를 두고 있습니다: 직접 두려면 자리를 되찾으세요.",
  "Watch the rematch": "재대결 관전",
  "Go to the rematch": "재대결로 가기",
  "Rematch": "재대결",
  "The game was abandoned.": "게임이 버려졌습니다.",
  "The game was aborted before anyone moved.": "아무도 두기 전에 게임이 중단되었습니다.",
  "Game over: {left} left the game. Won by {winners}.": "게임 끝: {left}이(가) 기권했습니다. 승자: {winners}.",
  "Game over. Won by {winners}{scores}.": "게임 끝. 승자: {winners}{scores}.",
  "Game over. No winner{scores}.": "게임 끝. 승자 없음{scores}.",
  " (scores: {scores})": " (점수: {scores})",
  "Rules help is not available right now.": "지금은 규칙 도움말을 볼 수 없습니다.",
  // the replay page
  "Replay · {title}": "다시 보기 · {title}",
  "move {n} of {of}": "{of}수 중 {n}수째",
  "This game is still running: the replay goes up to its last move.": "아직 진행 중인 게임입니다: 마지막 수까지 다시 봅니다.",
  // the lobby
  "Who sits here": "이 자리에 앉을 사람",
  "Me": "나",
  "Open seat (anyone joins)": "열린 자리 (누구나 참가)",
  "Invited (with a link)": "초대 (링크로)",
  "Bot: {bot}": "봇: {bot}",
  "Remove this seat": "이 자리 빼기",
  "{min}–{max} seats.": "{min}–{max}자리.",
  "Only one seat can be yours.": "내 자리는 하나만 될 수 있습니다.",
  "{bot} bot": "{bot} 봇",
  "{bot} bot {n}": "{bot} 봇 {n}",
  "invited seat": "초대 자리",
  "open seat": "열린 자리",
  "Joining the {type} game…": "{type} 게임에 참가하는 중…",
  "Open (waiting for players)": "열기 (플레이어 기다리는 중)",
  "Join": "참가",
  "Join the {type} game of {who}": "{who}의 {type} 게임에 참가",
  "by invitation": "초대로만",
  "Play (your turn)": "두기 (내 차례)",
  "Watch": "관전",
  "Replay": "다시 보기",
  "final board": "마지막 보드",
  "None: create one with an open seat.": "없음: 열린 자리가 있는 게임을 만드세요.",
  "None: create one, or make every seat a bot to watch.": "없음: 하나 만들거나, 모든 자리를 봇으로 해서 관전하세요.",
  "None yet.": "아직 없음.",
  "None yet: create or join a game.": "아직 없음: 게임을 만들거나 참가하세요.",
  "Play now": "바로 두기",
  "{min}–{max} seats, bots {bots}.": "{min}–{max}자리, 봇 {bots}.",
  "Your rating: {r} ({n} games)": "내 레이팅: {r} ({n}게임)",
  "Stop looking": "그만 찾기",
  "You left the queue.": "대기열에서 나왔습니다.",
  "Looking for {n} more player(s) for {title}… ({waiting} waiting) ": "{title}에 플레이어 {n}명을 더 찾는 중… ({waiting}명 대기) ",
  "You are {name} on this browser. ": "이 브라우저에서 나는 {name} 님입니다. ",
  "Your ratings": "내 레이팅",
  "You become a player when you create or join a game: this browser keeps your key.": "게임을 만들거나 참가하면 플레이어가 됩니다: 이 브라우저가 키를 보관합니다.",
  "Welcome back, {name}.": "다시 오신 것을 환영합니다, {name} 님.",

  // the account page (web/account.html, web/account.js)
  "Your keys and passkeys": "내 키와 패스키",
  "This browser": "이 브라우저",
  "Name this browser": "이 브라우저의 이름",
  "Sign in with a passkey": "패스키로 로그인",
  "Or a recovery code": "또는 복구 코드",
  "Recover": "복구하기",
  "Prove it is you": "본인 확인",
  "Revoking another device's key, a new recovery code or removing a passkey needs a passkey of yours or your recovery code (checked, not used up): a stolen device's key alone cannot lock you out.": "다른 기기의 키를 폐기하거나, 복구 코드를 새로 만들거나, 패스키를 지우려면 내 패스키나 복구 코드가 필요합니다 (확인만 하고 써 버리지 않습니다): 도난당한 기기의 키만으로는 나를 내쫓을 수 없습니다.",
  "Use a passkey": "패스키 사용",
  "Or your recovery code": "또는 내 복구 코드",
  "Prove it": "확인하기",
  "Keys": "키",
  "Each browser or app holds its own key: revoke one and the others go on working.": "브라우저나 앱마다 자기 키가 있습니다: 하나를 폐기해도 나머지는 계속 쓸 수 있습니다.",
  "A key for another device": "다른 기기용 키",
  "Make a key": "키 만들기",
  "Passkeys": "패스키",
  "A passkey signs you in on another browser without copying a key.": "패스키가 있으면 키를 옮겨 적지 않고도 다른 브라우저에서 로그인할 수 있습니다.",
  "Passkey name": "패스키 이름",
  "Add a passkey": "패스키 추가",
  "Recovery code": "복구 코드",
  "Shown once: keep it somewhere safe. It makes a new key if every device's key is lost. A new one replaces the old.": "한 번만 보여 줍니다: 안전한 곳에 보관하세요. 모든 기기의 키를 잃어버렸을 때 새 키를 만들어 줍니다. 새로 만들면 예전 코드는 쓸 수 없습니다.",
  "Make a new recovery code": "새 복구 코드 만들기",
  "Notifications": "알림",
  "Hear of your turn, a game's start and end and a clock's warning on this device, with the page closed (Web Push).": "페이지를 닫아 두어도 이 기기로 내 차례, 게임의 시작과 끝, 시계 경고를 알려 줍니다 (웹 푸시).",
  "Notify me on this device": "이 기기로 알림 받기",
  "Stop notifying this device": "이 기기 알림 끄기",
  "never": "없음",
  "first key": "첫 키",
  "passkey": "패스키",
  "passkey sign-in": "패스키 로그인",
  "recovered key": "복구한 키",
  "my passkey": "내 패스키",
  "This change needs proof that this is you: use a passkey of yours or your recovery code.": "이 변경에는 본인 확인이 필요합니다: 내 패스키나 복구 코드를 쓰세요.",
  "{name} (this browser): made {made}, last used {used}": "{name} (이 브라우저): 만든 때 {made}, 마지막 사용 {used}",
  "{name}: made {made}, last used {used}": "{name}: 만든 때 {made}, 마지막 사용 {used}",
  "{name}: added {made}, last used {used}": "{name}: 추가한 때 {made}, 마지막 사용 {used}",
  "Revoke": "폐기",
  "Remove": "지우기",
  "This browser's key is revoked: it is signed out.": "이 브라우저의 키를 폐기했습니다: 로그아웃되었습니다.",
  "The key “{name}” is revoked.": "키 “{name}”을(를) 폐기했습니다.",
  "The passkey “{name}” is removed.": "패스키 “{name}”을(를) 지웠습니다.",
  "This browser is {name}.": "이 브라우저는 {name} 님입니다.",
  "This browser holds no player: sign in with a passkey or a recovery code.": "이 브라우저에는 플레이어가 없습니다: 패스키나 복구 코드로 로그인하세요.",
  "The passkey is added: sign in with it on another browser.": "패스키를 추가했습니다: 다른 브라우저에서 이것으로 로그인하세요.",
  "Signed in as {name}: this browser has a key of its own now.": "{name} 님으로 로그인했습니다: 이제 이 브라우저에 자기 키가 있습니다.",
  "Signed in as {name}. The code is used up: your next one is shown below (keep it).": "{name} 님으로 로그인했습니다. 이 코드는 다 썼습니다: 다음 코드가 아래에 있습니다 (보관하세요).",
  "A key for “{name}” is shown below, once: use it on that device (the lobby's “Use a key”).": "“{name}”용 키를 아래에 한 번만 보여 줍니다: 그 기기에서 쓰세요 (로비의 “다른 브라우저의 키 사용”).",
  "A new recovery code is shown below, once; the old one no longer works.": "새 복구 코드를 아래에 한 번만 보여 줍니다. 예전 코드는 더 이상 쓸 수 없습니다.",
  "This browser cannot receive notifications (no Push API here).": "이 브라우저는 알림을 받을 수 없습니다 (푸시 API가 없습니다).",
  "Notifications are blocked for this site: allow them in the browser's site settings, then try again.": "이 사이트의 알림이 막혀 있습니다: 브라우저의 사이트 설정에서 허용한 뒤 다시 하세요.",
  "Notifications were not allowed: try again and answer the browser's question.": "알림이 허용되지 않았습니다: 다시 하고 브라우저의 물음에 답하세요.",
  "This device will be told of your turn, even with the page closed.": "페이지를 닫아 두어도 이 기기로 내 차례를 알려 줍니다.",
  "This device is told nothing more.": "이 기기에는 더 이상 알리지 않습니다.",
  "This device was not being notified.": "이 기기는 알림을 받고 있지 않았습니다.",

  // the replay's analysis (web/analysis.js)
  "Analysis": "분석",
  "Request analysis": "분석 요청",
  "No person made a decision in this game: nothing to analyse.": "이 게임에는 사람이 내린 결정이 없어 분석할 것이 없습니다.",
  "Each person's winning chance before and after each decision, as the search estimates it": "탐색이 추정한, 각 결정 전후의 사람별 승률",
  "Decision {n}: {before} → {after}": "{n}번째 결정: {before} → {after}",
  "Decision {n}": "{n}번째 결정",
  "Costly decisions": "손해가 큰 결정",
  "{who}'s winning chance {before} → {after}.": "{who}의 승률 {before} → {after}.",
  "The {level} bot would have played: {move}.": "{level} 봇이라면 이렇게 두었을 것입니다: {move}.",
  "No decision cost much: none is marked.": "손해가 큰 결정이 없어 표시한 것이 없습니다.",
  "The analysis is being computed…": "분석을 계산하는 중…",
  "No analysis yet: the search level can go through your decisions.": "아직 분석이 없습니다: 탐색 봇이 내 결정을 살펴볼 수 있습니다.",
  "No analysis yet: a player of this game can ask for one.": "아직 분석이 없습니다: 이 게임의 플레이어가 요청할 수 있습니다.",

  // the boards (web/board.js, web/boards/*.js): their captions, labels and text alternative;
  // the pieces' names are the server's (GET /game-types `pieces`)
  "Chosen: {names}.": "선택: {names}.",
  "or choose more on the board.": "또는 보드에서 더 고르세요.",
  "Choose more on the board.": "보드에서 더 고르세요.",
  "Cancel": "취소",
  "Your turn: choose on the board.": "내 차례: 보드에서 고르세요.",
  "{n} more in the move list.": "나머지 {n}개는 수 목록에 있습니다.",
  "Your move on the board": "보드에서 두는 수",
  "The board in words": "보드 설명",
  "Waiting for players: {n} free seat.": "플레이어를 기다리는 중: 빈자리 {n}개.",
  "Waiting for players: {n} free seats.": "플레이어를 기다리는 중: 빈자리 {n}개.",
  "Every seat is taken: the deal follows.": "모든 자리가 찼습니다: 곧 카드를 나눕니다.",
  "No board drawing for {type}: its view follows.": "{type}의 보드 그림이 없습니다: 상태를 그대로 보여 줍니다.",
  "This board could not be drawn ({reason}).": "보드를 그리지 못했습니다 ({reason}).",
  "combo {n}": "조합 {n}",
  "deck {n}": "카드 더미 {n}",
  "Won by {winners}": "승자: {winners}",
  "No winner": "승자 없음",
  "Game over. {won}.": "게임 끝. {won}.",
  "Game over. {won} (scores: {scores}).": "게임 끝. {won} (점수: {scores}).",
  "empty": "비어 있음",
  // Splendor
  "Splendor board": "스플렌더 보드",
  "{deck}, {n} cards left": "{deck}, {n}장 남음",
  "{n} {colour} gems in the supply": "공급처의 {colour} 보석 {n}개",
  "{name}: {n} points": "{name}: {n}점",
  "{name}: {n} points — to play": "{name}: {n}점 — 둘 차례",
  "{gems} gems, {cards} cards, {nobles} nobles": "보석 {gems}개, 카드 {cards}장, 귀족 {nobles}명",
  "reserved": "예약",
  "{n} {colour}": "{colour} {n}",
  "Supply: {gems}.": "공급처: {gems}.",
  "{name}: {points} points, {gems} gems, bonuses {bonuses}, {reserved} reserved.": "{name}: {points}점, 보석 {gems}개, 보너스 {bonuses}, 예약 {reserved}장.",
  "Level {n}: {cards}.": "{n}단계: {cards}.",
  // the gems' colours (the view's words; the game's vocabulary is not served by the API)
  "white": "백색", "blue": "청색", "green": "녹색", "red": "적색", "black": "흑색", "gold": "황금",
  // Witches
  "Witches table": "마녀 테이블",
  "{fire} fire points · {tricks} tricks": "화염 {fire}점 · 트릭 {tricks}개",
  "{name}: {fire} fire points, {tricks} tricks, {cards} cards": "{name}: 화염 {fire}점, 트릭 {tricks}개, 카드 {cards}장",
  "{n} cards": "카드 {n}장",
  "{n} cards · leads": "카드 {n}장 · 선",
  "Round {n}": "{n}라운드",
  "last trick to {name}": "마지막 트릭: {name}",
  "Your hand": "내 손패",
  "{name}'s hand": "{name}의 손패",
  "Your hand: {cards}.": "내 손패: {cards}.",
  "Trick: {cards}.": "트릭: {cards}.",
  "{name}: {n} fire points.": "{name}: 화염 {n}점.",
  // the colour led (t(`led ${colour}`)) and the phases (t(phase)), as the views name them
  "led red": "선: 빨강", "led green": "선: 초록", "led yellow": "선: 노랑", "led blue": "선: 파랑",
  "passing": "카드 넘기기", "playing": "카드 내기", "spell choice": "주문 고르기", "scoring": "점수 계산", "over": "끝",
  // SetUp
  "SetUp board": "셋업 보드",
  "{name}'s bonus square": "{name}의 보너스 칸",
  "{n} covered": "{n}장 덮임",
  "Market (bag: {n})": "마당패 (주머니: {n})", // the Korean rules' word, as the server's sentences say it
  "Your rack": "내 받침대",
  "{score} / {goal} points · rack {n}": "{score} / {goal}점 · 받침대 {n}",
  "Market: {tiles}.": "마당패: {tiles}.",
  "Your rack: {tiles}.": "내 받침대: {tiles}.",
  "Scores: {scores} (goal {goal}).": "점수: {scores} (목표 {goal}).",
  // the lobby's clocks and vacations (lobby.js, index.html)
  "Clock": "시계", "Time for the moves": "수마다 쓸 시간", "No clock": "시계 없음",
  "The same time for each move": "수마다 같은 시간", "A bank of time, more with each move (Fischer)": "기본 시간에 수마다 더하기 (피셔)",
  "Correspondence: days for each move": "통신 대국: 수마다 며칠",
  "Minutes for each move": "수마다 몇 분", "Minutes in the bank": "기본 시간 (분)", "Seconds added by each move": "수마다 더할 시간 (초)",
  "Days for each move": "수마다 며칠",
  "Each move: {time}.": "수마다 {time}.", "Each move: {time}, and vacations stop the clock.": "수마다 {time}. 휴가 중에는 시계가 멈춥니다.",
  "{bank} each, and {more} more with each move.": "각자 {bank}, 수마다 {more} 더합니다.",
  "Vacations": "휴가", "From": "시작일", "To (included)": "마지막 날", "Plan the vacation": "휴가 계획하기",
  "Take a day of vacation by itself when my time runs out": "시간이 다 되면 휴가 하루를 저절로 쓰기",
  "{left} of {allowance} days of vacation left this year.": "올해 휴가 {allowance}일 중 {left}일 남았습니다.",
  "On vacation until {end}": "{end}까지 휴가 중", "{start} to {end}": "{start} ~ {end}", "Cancel the vacation": "휴가 취소",
  "The vacation is planned.": "휴가를 계획했습니다.", "The vacation is cancelled.": "휴가를 취소했습니다.",
  // a profile's finished games (ratings.js, profile.html)
  "Finished games": "끝난 게임", "More games": "게임 더 보기", "with {others}": "상대: {others}",
  "won": "승리", "lost": "패배", "no winner": "승자 없음", "abandoned": "버려짐", "aborted": "중단됨",
  // Fairy Tile
  "Fairy Tile kingdom": "페어리 타일 왕국",
  // a hex named by what a person sees: its terrain and the figure on it or nearest (never coordinates)
  "an empty place": "빈 곳", "the next tile may go here": "다음 타일을 놓을 수 있습니다",
  "{terrain} with a river": "강이 흐르는 {terrain}",
  "{figures} on it": "{figures}이(가) 있는 곳",
  "1 hex {dir} of {figure}": "{figure}의 {dir} 1칸", "{n} hexes {dir} of {figure}": "{figure}의 {dir} {n}칸",
  "east": "동쪽", "south-east": "남동쪽", "south-west": "남서쪽", "west": "서쪽", "north-west": "북서쪽", "north-east": "북동쪽",
  "{figure} on the {terrain}": "{terrain}에 있는 {figure}",
  // the zoom of a phone's kingdom (board.js)
  "Zoom the kingdom": "왕국 확대·축소", "Zoom in": "확대", "Zoom out": "축소", "Zoom {n} of {of}": "확대 {n}/{of}단계",
  "Turn {n} · pile {pile}": "{n}번째 차례 · 더미 {pile}",
  "Next tile:": "다음 타일:",
  "book {n} · told {told}": "책 {n} · 이야기 {told}",
  "magic": "마법",
  "out": "탈락",
  "Your card: {title}": "내 카드: {title}",
  "{n} hexes in the kingdom; {figures}.": "왕국의 칸 {n}개; {figures}.",
  "{name}: book {n}, told {told}.": "{name}: 책 {n}, 이야기 {told}.",
  // the kingdom's terrains (the view's words; the vocabulary is not served by the API)
  "plain": "들", "forest": "숲", "mountain": "산", "castle": "성",
  // Small World of Warcraft
  "Small World of Warcraft map": "스몰 월드 오브 워크래프트 지도",
  "lost tribe": "잃어버린 부족",
  "{n} {race}": "{race} {n}",
  "{n} {race} in decline": "쇠퇴한 {race} {n}",
  "of {who}": "({who})",
  "{power} {race}": "{power} {race}",
  "Round {n}/{rounds} · {phase}": "{n}/{rounds}라운드 · {phase}",
  "combo {n}: {combo}, costs {cost}, {coins} coins on it": "조합 {n}: {combo}, 비용 {cost}, 위에 놓인 코인: {coins}",
  "{name} · {n} coins": "{name} · 코인 {n}개",
  "no race yet": "아직 종족 없음",
  "{n} on the map, {hand} in hand": "지도에 {n}, 손에 {hand}",
  "Round {n} of {rounds}, {phase}.": "{rounds}라운드 중 {n}라운드, {phase}.",
  "{name}: {race}, {n} tokens on the map": "{name}: {race}, 지도의 토큰 {n}개",
  "{n} coins": "코인 {n}개",
  "{n} regions hold tokens.": "토큰이 있는 지역 {n}곳.",
  // a region's symbols and the turn's steps, as the view names them
  "entry": "입구", "cavern": "동굴", "murloc": "멀록", "spot": "명소",
  "pick": "종족 고르기", "start": "시작", "conquer": "정복", "reinforce": "증원", "redeploy": "재배치", "defend": "방어", "markers": "표식", "score": "점수",
};

const CATALOGUES = { en: {}, ko: KO };

export function lang() {
  const chosen = localStorage.getItem(CHOSEN);
  if (chosen in LANGUAGES) return chosen;
  for (const asked of navigator.languages || [navigator.language]) {
    const base = String(asked).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

// The sentence in the page's language, its {placeholders} filled. A Korean particle written
// after a placeholder in both forms ("{who}을(를)", "{name}이(가)", "{n}(으)로"; a closing quote
// may stand between) is the one the filled-in word takes (particle): never shown as written.
export function t(english, vars = {}) {
  const template = CATALOGUES[lang()][english] ?? english;
  return template.replace(/\{(\w+)\}([”"’']?)(을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로)?/g,
    (whole, name, quote, pair) => {
      if (!(name in vars)) return whole;
      const word = String(vars[name]);
      return word + quote + (pair ? particle(word, pair) : "");
    });
}

// The Korean particle a word takes, by its last syllable: with a final consonant (받침) 을, 이,
// 은, 과, 으로 (로 after ㄹ), else 를, 가, 는, 와, 로. `pair` names the particle in either form
// ("을(를)", "를", "(으)로"...). The last letter counted is the last Hangul syllable, digit or
// Latin letter (a bot's "(봇)" ends in 봇): digits as read in Korean, a Latin word as Korean reads
// it (m, n: a final consonant; l: ㄹ; else a vowel).
const PAIRS = [["을", "를"], ["이", "가"], ["은", "는"], ["과", "와"], ["으로", "로"]];
const pairOf = (pair) => PAIRS.find(([a, b]) => [a, b, `${a}(${b})`, `${b}(${a})`].includes(pair)) || (pair.endsWith("로") ? PAIRS[4] : PAIRS[0]);
const DIGIT_FINAL = { 0: 21, 1: 8, 2: 0, 3: 16, 4: 0, 5: 0, 6: 1, 7: 8, 8: 8, 9: 0 }; // 영 일 이 삼 사 오 육 칠 팔 구
export function particle(word, pair) {
  const [withFinal, without] = pairOf(pair);
  const last = [...String(word)].reverse().find((c) => /[가-힣0-9A-Za-z]/.test(c));
  let final = 0; // 0: none; else the final consonant's index (8: ㄹ)
  if (!last) final = 0;
  else if (/[가-힣]/.test(last)) final = (last.charCodeAt(0) - 0xac00) % 28;
  else if (/[0-9]/.test(last)) final = DIGIT_FINAL[last];
  else final = /l/i.test(last) ? 8 : /[mn]/i.test(last) ? 1 : 0; // "gold" is 골드, "Ann" 앤
  if (withFinal === "으로") return final && final !== 8 ? "으로" : "로";
  return final ? withFinal : without;
}

// A length of time as a person reads it, through Intl: "2분 5초" under an hour, "약 5시간"
// under two days, "약 3일" beyond (never a count of seconds in the thousands).
export function duration(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const unit = (value, name) => new Intl.NumberFormat(lang(), { style: "unit", unit: name, unitDisplay: "long" }).format(value);
  if (s < 3600) {
    const m = Math.floor(s / 60), rest = s % 60;
    if (typeof Intl.DurationFormat === "function") {
      return new Intl.DurationFormat(lang(), { style: "long" }).format(m ? { minutes: m, seconds: rest } : { seconds: rest });
    }
    return m ? `${unit(m, "minute")} ${unit(rest, "second")}` : unit(rest, "second");
  }
  if (s < 2 * 86400) return t("about {d}", { d: unit(Math.round(s / 3600), "hour") });
  return t("about {d}", { d: unit(Math.round(s / 86400), "day") });
}

// How long ago, through Intl ("5분 전", "3 hours ago").
export function ago(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  const said = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  if (s < 60) return said.format(-s, "second");
  if (s < 3600) return said.format(-Math.round(s / 60), "minute");
  if (s < 86400) return said.format(-Math.round(s / 3600), "hour");
  return said.format(-Math.round(s / 86400), "day");
}

function translatePage() {
  document.documentElement.lang = lang();
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  for (const node of document.querySelectorAll("[data-i18n-title]")) node.setAttribute("title", t(node.dataset.i18nTitle));
}

// The language switch, in the page's header bar: a choice kept, then the page read again in it
// (the API's words too: they were asked in the old language).
function addSwitch() {
  const bar = document.querySelector("header.bar");
  if (!bar || bar.querySelector("#lang")) return;
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === lang());
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => { localStorage.setItem(CHOSEN, select.value); location.reload(); });
  bar.append(select);
}

translatePage();
addSwitch();
