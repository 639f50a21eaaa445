(function () {
	"use strict";
	// Arms the answer buttons the way the desktop dialog does: only after
	// the page has been visible and focused for the arming delay with no key
	// pressed; a key pressed before then starts the delay again, so a person
	// typing when the page takes focus never answers it with the Enter that
	// ends their line (docs/arming.md). Leaving the page disarms and coming
	// back starts the delay again. A key acts only if it went down while
	// armed, and key-repeat never acts. The server
	// refuses an answer posted sooner than the delay after the page was
	// served, whatever this script does.
	var form = document.getElementById("answer");
	var left = document.getElementById("left");
	if (left) {
		var end = Date.now() + parseInt(left.getAttribute("data-left-ms"), 10);
		var tick = function () {
			var s = Math.ceil((end - Date.now()) / 1000);
			if (s <= 0) { left.textContent = "time is up"; return; }
			var m = Math.floor(s / 60);
			left.textContent = s < 3600 ? m + ":" + ("0" + s % 60).slice(-2) + " left"
				: Math.floor(s / 3600) + " h " + ("0" + m % 60).slice(-2) + " min left";
		};
		setInterval(tick, 1000);
	}
	if (!form) { return; }
	var delay = parseInt(form.getAttribute("data-arm-ms"), 10) || 500;
	var buttons = form.querySelectorAll(".bar button");
	var def = form.querySelector(".bar button[data-default]");
	var cancel = form.querySelector('.bar button[value="cancel"]');
	var hint = document.getElementById("hint");
	var armed = false, timer = 0, sent = false;

	function set(on, why) {
		armed = on && !sent;
		for (var i = 0; i < buttons.length; i++) { buttons[i].disabled = !armed; }
		if (sent) { return; }
		hint.textContent = armed ? keys() : why;
	}
	function keys() {
		var inText = document.activeElement && document.activeElement.tagName === "TEXTAREA";
		return (def ? (inText ? "Ctrl+Enter: " : "Enter: ") + def.textContent + " · " : "") + "Esc: " + cancel.textContent;
	}
	function active() { return document.visibilityState === "visible" && document.hasFocus(); }
	function disarm() {
		clearTimeout(timer);
		set(false, "Answer buttons unlock when this page has focus.");
	}
	// wait starts the arming delay (again), showing why the buttons are off.
	function wait(why) {
		clearTimeout(timer);
		if (!active()) { disarm(); return; }
		set(false, why);
		timer = setTimeout(function () { if (active()) { set(true); } else { disarm(); } }, delay);
	}
	function check() {
		if (armed || sent) { return; }
		wait("Answer buttons unlock in a moment.");
	}
	window.addEventListener("focus", check);
	document.addEventListener("focusin", function () { if (armed) { hint.textContent = keys(); } });
	window.addEventListener("blur", disarm);
	document.addEventListener("visibilitychange", function () {
		if (document.visibilityState === "visible") { check(); } else { disarm(); }
	});
	// Nothing typed before arming becomes part of an answer (docs/arming.md):
	// until the page is armed every key but Tab and the modifiers is dropped
	// (characters in a field, Backspace, Space on a check box, arrows on a
	// radio group or a drop-down), as are paste, drop and any other input, and
	// a key held down from before arming types nothing when it repeats after.
	var passes = { Tab: 1, Shift: 1, Control: 1, Alt: 1, Meta: 1, CapsLock: 1, AltGraph: 1 };
	var heldBefore = {};
	function unarmed() { return !armed && !sent; }
	["paste", "drop", "beforeinput"].forEach(function (type) {
		document.addEventListener(type, function (e) { if (unarmed()) { e.preventDefault(); } }, true);
	});
	document.addEventListener("keyup", function (e) { delete heldBefore[e.code]; }, true);
	document.addEventListener("keydown", function (e) {
		if (!passes[e.key] && (unarmed() || (e.repeat && heldBefore[e.code]))) {
			if (unarmed()) {
				heldBefore[e.code] = true;
				wait("Answer buttons unlock once you stop typing; what you type until then is ignored.");
			}
			e.preventDefault();
			return;
		}
		if (unarmed()) { wait("Answer buttons unlock once you stop typing; what you type until then is ignored."); }
		var t = e.target, tag = t && t.tagName, answerButton = tag === "BUTTON" && t.type === "submit";
		if (e.key === "Enter") {
			if (tag === "TEXTAREA" && !e.ctrlKey && !e.metaKey) { return; }
			if (tag === "BUTTON" && !answerButton) { return; }
			e.preventDefault();
			if (e.repeat || !armed) { return; }
			(answerButton ? t : def).click();
		} else if (e.key === "Escape" && tag !== "SELECT") {
			if (!e.repeat && armed && cancel) { e.preventDefault(); cancel.click(); }
		} else if (e.key === " " && answerButton && (e.repeat || !armed)) {
			e.preventDefault();
		}
	}, true);
	form.addEventListener("submit", function (e) {
		if (sent || !armed) { e.preventDefault(); return; }
		sent = true;
		hint.textContent = "Sending…";
		// Disabled after the browser has taken the pressed button's value.
		setTimeout(function () { set(false, ""); }, 0);
	});
	var fills = form.querySelectorAll("button.fill");
	for (var i = 0; i < fills.length; i++) {
		fills[i].addEventListener("click", function (e) {
			var text = document.getElementById("text");
			text.value = e.currentTarget.getAttribute("data-fill");
			text.focus();
		});
	}
	var focus = form.getAttribute("data-focus");
	var first = focus ? document.getElementById(focus) : def;
	if (first) {
		// A disabled button cannot take focus; focus it once armed.
		if (first === def) {
			var observer = new MutationObserver(function () {
				if (def.disabled) { return; }
				observer.disconnect();
				if (document.activeElement === document.body) { def.focus(); }
			});
			observer.observe(def, { attributes: true });
		} else {
			first.focus();
			try { first.setSelectionRange(first.value.length, first.value.length); } catch (err) { /* not a text box */ }
		}
	}
	check();
})();
