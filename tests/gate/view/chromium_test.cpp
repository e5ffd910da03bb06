// `stepslide view` in headless Chromium with software WebGL: the page loads
// with no error and no network request, reads its tick from the URL, shows
// a ghost only with a reference and queries only with --trace, two moments
// differ where the character moved, and inside a real level (oa_dm3) the
// first frame shows the character on its floor, not the level's roof, with
// the camera and cut keys doing what the page says. Skipped without
// Chromium or without libjs-three.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "gate/picture_test_util.h"
#include "gate/view/view_test_util.h"

namespace stepslide::test {
namespace {

/// A proxy on 127.0.0.1 that answers nothing: it records the first line of
/// each request and closes the connection.
class RefusingProxy {
 public:
  RefusingProxy() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ADD_FAILURE() << "cannot listen on 127.0.0.1";
      return;
    }
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~RefusingProxy() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  int port() const { return port_; }
  std::vector<std::string> requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client < 0) continue;
      pollfd c{client, POLLIN, 0};
      char buffer[512] = {};
      const ssize_t n = ::poll(&c, 1, 1000) > 0 ? ::read(client, buffer, sizeof(buffer) - 1) : 0;
      ::close(client);
      const std::string text(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(text.substr(0, text.find('\r')));
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> requests_;
};

/// Chromium's own background services (time, updates, accounts), which it
/// asks whatever the page: never anything the page names.
bool browser_background(const std::string& request) {
  for (const char* host : {".google.com", ".googleapis.com", ".gstatic.com", ".gvt1.com"}) {
    if (request.find(host) != std::string::npos) return true;
  }
  return false;
}

class ViewChromium : public CommandTest {
 protected:
  void SetUp() override {
    CommandTest::SetUp();
    chromium_ = chromium_binary();
    if (chromium_.empty()) {
      GTEST_SKIP() << "chromium is not installed: run STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh "
                      "(or set STEPSLIDE_CHROMIUM to a Chromium binary) to check the view in a browser";
    }
    if (!have_libjs_three()) GTEST_SKIP() << "libjs-three is not installed: tools/install-deps.sh installs it";
    copy_case("stairs/up_straight.json");
  }
  /// Writes PAGE with `stepslide view ARGS --out PAGE`; returns its file URL.
  std::string make_view(const std::string& args, const std::string& page) {
    const RunResult r =
        run("view " + args + " --out " + page, "STEPSLIDE_THREE_DIR=" + std::string(view::kDebianThreeDir));
    EXPECT_LE(r.code, 1) << r.err;
    EXPECT_TRUE(exists(page)) << r.err;
    return "file://" + path(page).string();
  }
  std::string chromium_;
};

TEST_F(ViewChromium, LoadsWithoutErrorsReadsTheTickAndShowsGhostDivergenceAndQueries) {
  write("scenarios/stairs/low.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  const std::string url =
      make_view("scenarios/stairs/low.json --golden golden/stairs/up_straight.csv --trace", "low.html");
  const DomDump d = dump_dom(chromium_, url + "#tick=12", dir_);
  EXPECT_EQ(d.status, 0) << d.log;
  EXPECT_EQ(body_attribute(d.dom, "data-status"), "ready") << d.dom.substr(0, 4000);
  EXPECT_EQ(body_attribute(d.dom, "data-errors"), "0");
  EXPECT_EQ(body_attribute(d.dom, "data-warnings"), "0");
  EXPECT_EQ(d.log.find(":CONSOLE"), std::string::npos) << "the console said something:\n" << d.log;
  EXPECT_EQ(body_attribute(d.dom, "data-tick"), "12");
  EXPECT_EQ(body_attribute(d.dom, "data-bodies"), "3");
  EXPECT_EQ(body_attribute(d.dom, "data-ghosts"), "2");  // the golden's path and shape
  EXPECT_EQ(body_attribute(d.dom, "data-divergence"), "12");
  EXPECT_EQ(body_attribute(d.dom, "data-trace"), "yes");
  EXPECT_GT(std::stoi("0" + body_attribute(d.dom, "data-trace-objects")), 10);
  // The panel lists the tick's queries with trace's words.
  EXPECT_CONTAINS(d.dom, "ray riser-height");
  EXPECT_CONTAINS(d.dom, "refused: riser taller than max_step_height");
  EXPECT_CONTAINS(d.dom, "<title>low · tick 12 - stepslide view</title>");
}

TEST_F(ViewChromium, WithoutAReferenceOrTraceThereIsNoGhostAndNoQuery) {
  const std::string url = make_view("scenarios/stairs/up_straight.json", "plain.html");
  const DomDump d = dump_dom(chromium_, url + "#tick=99999", dir_);
  EXPECT_EQ(body_attribute(d.dom, "data-status"), "ready") << d.dom.substr(0, 4000);
  EXPECT_EQ(body_attribute(d.dom, "data-ghosts"), "0");
  EXPECT_EQ(body_attribute(d.dom, "data-divergence"), "none");
  EXPECT_EQ(body_attribute(d.dom, "data-trace"), "no");
  EXPECT_EQ(body_attribute(d.dom, "data-trace-objects"), "0");
  EXPECT_EQ(body_attribute(d.dom, "data-tick"), "90");  // a tick past the end shows the last
  EXPECT_CONTAINS(d.dom, "run stepslide view with --trace");
}

TEST_F(ViewChromium, MakesNoNetworkRequest) {
  const std::string url = make_view("scenarios/stairs/up_straight.json --golden golden/stairs/up_straight.csv",
                                    "page.html");
  RefusingProxy proxy;
  const std::string flags = "--proxy-server=127.0.0.1:" + std::to_string(proxy.port()) +
                            " --proxy-bypass-list='<-loopback>'";
  const DomDump d = dump_dom(chromium_, url, dir_, flags);
  EXPECT_EQ(body_attribute(d.dom, "data-status"), "ready") << d.dom.substr(0, 4000);
  EXPECT_EQ(read("page.html").find("google"), std::string::npos);
  for (const std::string& request : proxy.requests()) {
    EXPECT_TRUE(browser_background(request)) << "the page asked the network: " << request;
  }
}

/// Drives the page as a person would (keys, hash, buttons, play, hover) and
/// writes what it saw into <pre id="test-results"> as "name=value" lines.
constexpr const char* kDriver = R"js(
(function () {
  const v = window.stepslideViewer;
  const out = [];
  const note = (name, value) => out.push(name + '=' + value);
  const key = (k, shift) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: !!shift }));
  const up = v.scene.up;
  const offset = () => v.scene.camera.position.clone().sub(v.scene.controls.target).normalize();

  v.setTick(10);
  key('ArrowRight'); key('ArrowRight'); key('ArrowRight');
  note('after_3_right', v.tick);
  key('ArrowRight', true);
  note('after_shift_right', v.tick);
  key('ArrowLeft');
  note('after_left', v.tick);
  note('hash', window.location.hash);
  key('End');
  note('end', v.tick);
  key('Home');
  note('home', v.tick);
  document.getElementById('slider').value = '33';
  document.getElementById('slider').dispatchEvent(new Event('input'));
  note('slider', v.tick);

  document.getElementById('view-top').click();
  note('top_along_up', offset().dot(up).toFixed(3));
  document.getElementById('view-side').click();
  note('side_across_up', Math.abs(offset().dot(up)).toFixed(3));

  const follow = document.getElementById('follow');
  follow.checked = true;
  follow.dispatchEvent(new Event('change'));
  v.setTick(70);
  const feet = feetAt(v.runs[0], 70).addScaledVector(up, v.scene.centre);
  note('follow_distance', v.scene.controls.target.distanceTo(feet).toFixed(6));
  follow.checked = false;

  const speed = document.getElementById('speed');
  speed.value = '2';
  speed.dispatchEvent(new Event('change'));
  v.setTick(0);
  document.getElementById('play').click();
  note('playing', v.timeline.playing + ' ' + document.getElementById('play').textContent);
  v.timeline.frame(1000, function () {});
  v.timeline.frame(1250, function () {});  // 0.25 s at 60 Hz x 2 = 30 ticks
  note('played_to', v.tick);
  key(' ');
  note('paused', v.timeline.playing + ' ' + document.getElementById('play').textContent);

  document.getElementById('to-divergence').click();
  note('divergence_button', v.tick);
  // The first event that draws something (the velocity update draws nothing).
  const drawn = v.scene.overlay.children[0].userData.event;
  const line = document.querySelectorAll('#panel .events li')[drawn];
  line.dispatchEvent(new MouseEvent('mouseenter'));
  const shown = v.scene.overlay.children.filter((o) => o.visible);
  note('hover_shows_only_its_event', shown.length > 0 && shown.length < v.scene.overlay.children.length &&
    shown.every((o) => o.userData.event === drawn) && line.classList.contains('highlight'));
  line.dispatchEvent(new MouseEvent('mouseleave'));
  note('leave_shows_all', v.scene.overlay.children.every((o) => o.visible));

  window.location.hash = '#tick=40';
  setTimeout(function () {
    note('hashchange', v.tick);
    const pre = document.createElement('pre');
    pre.id = 'test-results';
    pre.textContent = out.join('\n');
    document.body.appendChild(pre);
  }, 200);
})();
)js";

/// The "name=value" lines of the driver's results.
std::map<std::string, std::string> driver_results(const std::string& dom) {
  std::map<std::string, std::string> results;
  const std::size_t start = dom.find("<pre id=\"test-results\">");
  if (start == std::string::npos) return results;
  std::istringstream lines(dom.substr(start + 23, dom.find("</pre>", start) - start - 23));
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t eq = line.find('=');
    if (eq != std::string::npos) results[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return results;
}

TEST_F(ViewChromium, KeysHashButtonsPlayAndHoverDoWhatTheySay) {
  write("scenarios/stairs/low.json", with_low_step(kSource + "/scenarios/stairs/up_straight.json"));
  make_view("scenarios/stairs/low.json --golden golden/stairs/up_straight.csv --trace", "low.html");
  std::string html = read("low.html");
  html.insert(html.rfind("</body>"), "<script id=\"test-driver\">" + std::string(kDriver) + "</script>\n");
  write("driven.html", html);
  const DomDump d = dump_dom(chromium_, "file://" + path("driven.html").string() + "#tick=5", dir_,
                             "--virtual-time-budget=5000");
  EXPECT_EQ(body_attribute(d.dom, "data-errors"), "0") << d.dom.substr(0, 3000);
  const std::map<std::string, std::string> r = driver_results(d.dom);
  ASSERT_FALSE(r.empty()) << d.log;
  const std::map<std::string, std::string> expected = {
      {"after_3_right", "13"},
      {"after_shift_right", "23"},
      {"after_left", "22"},
      {"hash", "#tick=22"},
      {"end", "90"},
      {"home", "0"},
      {"slider", "33"},
      {"top_along_up", "1.000"},
      {"side_across_up", "0.000"},
      {"follow_distance", "0.000000"},
      {"playing", "true Pause"},
      {"played_to", "30"},
      {"paused", "false Play"},
      {"divergence_button", "12"},
      {"hover_shows_only_its_event", "true"},
      {"leave_shows_all", "true"},
      {"hashchange", "40"},
  };
  for (const auto& [name, value] : expected) {
    const auto found = r.find(name);
    EXPECT_TRUE(found != r.end() && found->second == value)
        << name << ": expected " << value << ", got " << (found == r.end() ? "(nothing)" : found->second);
  }
}

/// The blue of the character's shape, lit or shaded.
bool character_blue(const Image& image, unsigned x, unsigned y) {
  const unsigned char* p = &image.rgb[3 * (static_cast<std::size_t>(y) * image.width + x)];
  return p[2] > 120 && p[2] > p[0] + 60 && p[2] > p[1] + 30;
}

struct Region {
  unsigned x0 = ~0u, y0 = ~0u, x1 = 0, y1 = 0;
  std::size_t count = 0;
  double cx = 0, cy = 0;
  bool contains(unsigned x, unsigned y, unsigned margin) const {
    return count > 0 && x + margin >= x0 && x <= x1 + margin && y + margin >= y0 && y <= y1 + margin;
  }
};

/// The scene's part of a screenshot: left of the panel, between the header
/// and the timeline, without the legend's corner.
bool in_scene(const Image& image, unsigned x, unsigned y) {
  const bool legend = x < 170 && y + 220 > image.height;
  return x + 400 < image.width && y > 60 && y + 60 < image.height && !legend;
}

Region character_region(const Image& image) {
  Region r;
  for (unsigned y = 0; y < image.height; ++y) {
    for (unsigned x = 0; x < image.width; ++x) {
      if (!in_scene(image, x, y) || !character_blue(image, x, y)) continue;
      r.x0 = std::min(r.x0, x);
      r.y0 = std::min(r.y0, y);
      r.x1 = std::max(r.x1, x);
      r.y1 = std::max(r.y1, y);
      r.cx += x;
      r.cy += y;
      ++r.count;
    }
  }
  if (r.count > 0) {
    r.cx /= static_cast<double>(r.count);
    r.cy /= static_cast<double>(r.count);
  }
  return r;
}

TEST_F(ViewChromium, TheFirstAndLastTicksDifferWhereTheCharacterMoved) {
  const std::string url = make_view("scenarios/stairs/up_straight.json", "walk.html");
  const std::optional<Image> start = webgl_screenshot(chromium_, url + "#tick=0", 1200, 800, dir_);
  fs::copy_file(path("shot.png"), path("tick0.png"));
  const std::optional<Image> end = webgl_screenshot(chromium_, url + "#tick=90", 1200, 800, dir_);
  ASSERT_TRUE(start && end);
  ASSERT_EQ(start->width, end->width);
  EXPECT_GT(distinct_colours(*start), 50u) << "a level, lit, was drawn";

  const Region a = character_region(*start), b = character_region(*end);
  EXPECT_GT(a.count, 500u) << "the character is drawn at tick 0";
  EXPECT_GT(b.count, 500u) << "the character is drawn at tick 90";
  EXPECT_GT(std::hypot(a.cx - b.cx, a.cy - b.cy), 60) << "it walked 7 m up the stairs";

  // Within the scene, what changed is where the character was and is.
  std::size_t changed = 0, near_character = 0;
  for (unsigned y = 0; y < start->height; ++y) {
    for (unsigned x = 0; x < start->width; ++x) {
      if (!in_scene(*start, x, y)) continue;
      const std::size_t i = 3 * (static_cast<std::size_t>(y) * start->width + x);
      const int delta = std::abs(start->rgb[i] - end->rgb[i]) + std::abs(start->rgb[i + 1] - end->rgb[i + 1]) +
                        std::abs(start->rgb[i + 2] - end->rgb[i + 2]);
      if (delta <= 24) continue;
      ++changed;
      if (a.contains(x, y, 12) || b.contains(x, y, 12)) ++near_character;
    }
  }
  EXPECT_GT(changed, 1000u);
  EXPECT_GE(static_cast<double>(near_character), 0.95 * static_cast<double>(changed))
      << near_character << " of " << changed << " changed pixels are near the character";
}

/// The scenario of the level tests: up the straight stairs of oa_dm3's east
/// wing, inside the level (walls around, a roof and upper floors above).
const std::string kLevelScenario = kSource + "/scenarios/levels/oa_dm3/stairs_8u_up.json";

/// The most frequent colour of `image` within the box (x0, y0)-(x1, y1), and
/// how many of its pixels have it; colours to 5 bits a channel.
std::pair<unsigned, std::size_t> dominant_colour(const Image& image, unsigned x0, unsigned y0, unsigned x1,
                                                 unsigned y1, std::size_t* distinct = nullptr) {
  std::map<unsigned, std::size_t> counts;
  for (unsigned y = y0; y < y1 && y < image.height; ++y) {
    for (unsigned x = x0; x < x1 && x < image.width; ++x) {
      const unsigned char* p = &image.rgb[3 * (static_cast<std::size_t>(y) * image.width + x)];
      ++counts[(p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3)];
    }
  }
  std::pair<unsigned, std::size_t> best{0, 0};
  for (const auto& [colour, n] : counts) {
    if (n > best.second) best = {colour, n};
  }
  if (distinct != nullptr) *distinct = counts.size();
  return best;
}

/// A lit floor of the level: the page's greyish green for meshes.
bool level_green(const Image& image, unsigned x, unsigned y) {
  const unsigned char* p = &image.rgb[3 * (static_cast<std::size_t>(y) * image.width + x)];
  return p[1] > 60 && p[1] > p[0] + 6 && p[1] > p[2] + 6;
}

TEST_F(ViewChromium, InsideALevelTheFirstFrameShowsTheCharacterOnItsFloor) {
  const std::string url = make_view("'" + kLevelScenario + "' --golden '" + golden_of(kLevelScenario) + "'", "level.html");
  const DomDump d = dump_dom(chromium_, url, dir_, "--window-size=1200,800");
  ASSERT_EQ(body_attribute(d.dom, "data-status"), "ready") << d.dom.substr(0, 4000) << d.log;
  EXPECT_EQ(body_attribute(d.dom, "data-errors"), "0");
  EXPECT_EQ(body_attribute(d.dom, "data-level"), "yes");
  EXPECT_EQ(body_attribute(d.dom, "data-follow"), "yes") << "a third-person camera follows the character";
  EXPECT_EQ(body_attribute(d.dom, "data-cut"), "2.1") << "cut 0.3 m above the head of a 1.8 m capsule";
  EXPECT_EQ(body_attribute(d.dom, "data-ghosts"), "2") << "the golden's ghost stays";
  // The page says how to move the camera and the cut.
  EXPECT_CONTAINS(d.dom, "drag to orbit, right-drag or shift-drag to pan, wheel to zoom");
  EXPECT_CONTAINS(d.dom, "[ / ] cut height");
  std::istringstream where(body_attribute(d.dom, "data-character-screen"));
  double sx = -1, sy = -1;
  where >> sx >> sy;
  EXPECT_GT(sx, 0) << "the character is in front of the camera";
  EXPECT_GT(sy, 0) << "the character is in front of the camera";

  const std::optional<Image> shot = webgl_screenshot(chromium_, url, 1200, 800, dir_);
  ASSERT_TRUE(shot);
  // The character is drawn, whole, not hidden by a roof or a wall, and near
  // the middle of the scene (the camera follows it).
  const Region character = character_region(*shot);
  ASSERT_GT(character.count, 800u) << "the character's blue is on the first frame";
  const double cx = character.cx, cy = character.cy;
  EXPECT_GT(cx, 0.25 * (shot->width - 400));
  EXPECT_LT(cx, 0.75 * (shot->width - 400));
  EXPECT_GT(cy, 60 + 0.25 * (shot->height - 120));
  EXPECT_LT(cy, 60 + 0.75 * (shot->height - 120));
  // The frame is not one flat colour (a roof seen from outside is): where
  // the character is, the pixels are not the frame's commonest colour, and
  // around it are the lit floor it stands on and the cut walls.
  const auto [common, common_count] = dominant_colour(*shot, 0, 61, shot->width - 400, shot->height - 61);
  std::size_t near = 0, near_common = 0;
  for (unsigned y = static_cast<unsigned>(cy) - 20; y < static_cast<unsigned>(cy) + 20; ++y) {
    for (unsigned x = static_cast<unsigned>(cx) - 10; x < static_cast<unsigned>(cx) + 10; ++x) {
      const unsigned char* p = &shot->rgb[3 * (static_cast<std::size_t>(y) * shot->width + x)];
      near_common += ((p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3)) == common ? 1 : 0;
      ++near;
    }
  }
  EXPECT_LT(near_common, near / 10) << "the frame's commonest colour (" << common_count << " pixels) is where the "
                                    << "character is";
  const unsigned x0 = static_cast<unsigned>(std::max(0.0, cx - 150)), y0 = static_cast<unsigned>(std::max(0.0, cy - 150));
  const unsigned x1 = static_cast<unsigned>(cx + 150), y1 = static_cast<unsigned>(cy + 150);
  std::size_t distinct = 0;
  dominant_colour(*shot, x0, y0, x1, y1, &distinct);
  EXPECT_GT(distinct, 40u) << "a lit level, a character and a path, not one plane";
  const std::size_t area = static_cast<std::size_t>(x1 - x0) * (y1 - y0);
  std::size_t floor = 0;
  for (unsigned y = static_cast<unsigned>(cy); y < y1 && y < shot->height; ++y) {
    for (unsigned x = x0; x < x1 && x < shot->width; ++x) floor += level_green(*shot, x, y) ? 1 : 0;
  }
  EXPECT_GT(floor, area / 10) << "the level's floor under and around the feet";
}

/// Presses the level page's keys and writes what changed into
/// <pre id="test-results">, as kDriver does.
constexpr const char* kLevelDriver = R"js(
(function () {
  const v = window.stepslideViewer, s = v.scene;
  const out = [];
  const note = (name, value) => out.push(name + '=' + value);
  const key = (k, shift) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: !!shift }));
  const offset = () => s.camera.position.clone().sub(s.controls.target);
  const up = s.up;
  const heading = (o) => Math.atan2(o.x, o.z);
  const elevation = (o) => Math.asin(o.dot(up) / o.length());
  const degrees = (r) => (r * 180 / Math.PI).toFixed(1);

  note('cut', document.body.getAttribute('data-cut') + ' ' + document.getElementById('cut-value').textContent);
  key(']'); key(']');
  note('cut_raised', document.body.getAttribute('data-cut'));
  key('[');
  note('cut_lowered', document.body.getAttribute('data-cut'));
  key('c');
  note('cutaway_off', document.body.getAttribute('data-cut') + ' ' + document.getElementById('cutaway').checked);
  key('c');
  note('cutaway_on', document.body.getAttribute('data-cut'));

  let before = offset();
  key('d');
  let after = offset();
  let turn = heading(after) - heading(before);
  if (turn > Math.PI) turn -= 2 * Math.PI;
  if (turn < -Math.PI) turn += 2 * Math.PI;
  note('orbit_deg', degrees(turn));
  note('orbit_keeps_distance', Math.abs(after.length() - before.length()) < 1e-6);
  before = offset();
  key('w');
  note('tilt_deg', degrees(elevation(offset()) - elevation(before)));
  before = offset();
  key('+');
  note('zoom_ratio', (offset().length() / before.length()).toFixed(4));
  const target = s.controls.target.clone();
  key('d', true);
  note('pan_moves_target', s.controls.target.distanceTo(target) > 0.01);
  note('pan_stops_following', document.body.getAttribute('data-follow'));
  key('f');
  v.setTick(60);
  const centre = feetAt(v.runs[0], 60).addScaledVector(up, s.centre);
  note('follow_again', document.body.getAttribute('data-follow') + ' ' +
    s.controls.target.distanceTo(centre).toFixed(6));
  document.getElementById('view-top').click();
  note('top_along_up', offset().normalize().dot(up).toFixed(3));

  const pre = document.createElement('pre');
  pre.id = 'test-results';
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
)js";

TEST_F(ViewChromium, InsideALevelTheKeysMoveTheCameraAndTheCut) {
  make_view("'" + kLevelScenario + "'", "level.html");
  std::string html = read("level.html");
  html.insert(html.rfind("</body>"), "<script id=\"test-driver\">" + std::string(kLevelDriver) + "</script>\n");
  write("driven.html", html);
  const DomDump d = dump_dom(chromium_, "file://" + path("driven.html").string(), dir_);
  EXPECT_EQ(body_attribute(d.dom, "data-errors"), "0") << d.dom.substr(0, 3000);
  const std::map<std::string, std::string> r = driver_results(d.dom);
  ASSERT_FALSE(r.empty()) << d.log;
  const std::map<std::string, std::string> expected = {
      {"cut", "2.1 2.1 m"},
      {"cut_raised", "2.3"},
      {"cut_lowered", "2.2"},
      {"cutaway_off", "off false"},
      {"cutaway_on", "2.2"},
      {"orbit_deg", "10.0"},
      {"orbit_keeps_distance", "true"},
      {"tilt_deg", "10.0"},
      {"zoom_ratio", "0.8333"},
      {"pan_moves_target", "true"},
      {"pan_stops_following", "no"},
      {"follow_again", "yes 0.000000"},
      {"top_along_up", "1.000"},
  };
  for (const auto& [name, value] : expected) {
    const auto found = r.find(name);
    EXPECT_TRUE(found != r.end() && found->second == value)
        << name << ": expected " << value << ", got " << (found == r.end() ? "(nothing)" : found->second);
  }
}

/// "characters": the page draws every character from its columns (the
/// document's "characters") and loads without an error or a console line.
TEST_F(ViewChromium, ASceneOfSeveralCharactersLoadsWithoutErrors) {
  copy_case("characters/stand_on_head_mesh.json");
  const std::string url = make_view("scenarios/characters/stand_on_head_mesh.json --trace", "characters.html");
  const DomDump d = dump_dom(chromium_, url + "#tick=100", dir_);
  EXPECT_EQ(d.status, 0) << d.log;
  EXPECT_EQ(body_attribute(d.dom, "data-status"), "ready") << d.dom.substr(0, 4000);
  EXPECT_EQ(body_attribute(d.dom, "data-errors"), "0");
  EXPECT_EQ(d.log.find(":CONSOLE"), std::string::npos) << "the console said something:\n" << d.log;
  EXPECT_EQ(body_attribute(d.dom, "data-tick"), "100");
  // The rider's events are in the trace too, labelled with its name.
  EXPECT_EQ(body_attribute(d.dom, "data-trace"), "yes");
  // The legend lists the other character by its name, in its colour.
  EXPECT_NE(d.dom.find("character rider</div>"), std::string::npos) << d.dom.substr(0, 4000);
  EXPECT_NE(d.dom.find("background: rgb(0, 137, 123)"), std::string::npos) << "the first other's colour, #00897b";
}

}  // namespace
}  // namespace stepslide::test
