// The game sheet's one button: print it.
document.getElementById("print")?.addEventListener("click", () => window.print());
