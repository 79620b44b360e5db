"""The text of every error, in Spanish (first) and English.

One catalogue, keyed by the error's code, so that the command line, the server and the browser
say the same thing in the same words. Seats are numbered from 0, as in records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from fichaflow.core.errors import FichaFlowError

ES: Final[dict[str, str]] = {
    "tile.invalid": "«{text}» no es una ficha: se escribe como 6-4, con números del 0 al 6",
    "rules.unknown_preset": "no existe el reglamento «{preset}»; los que hay son: {allowed}",
    "rules.unknown_option": "no existe la opción «{option}»; las opciones son: {allowed}",
    "rules.bad_value": "la opción {option} no admite «{value}»; valores permitidos: {allowed}",
    "rules.target": "la opción target debe ser un número entero de {low} a {high} (no «{value}»)",
    "rules.bonus": "la opción {option} debe ser un número entero de {low} a {high} (no «{value}»)",
    "rules.doble_seis_stock": (
        "la opción first_lead no admite doble_seis en {mode}, que se juega con montón; "
        "valores permitidos: {allowed}"
    ),
    "rules.missing_preset": "las reglas deben nombrar su reglamento (preset): {allowed}",
    "rules.not_rules": (
        "las reglas deben ser el nombre de un reglamento o un objeto con «preset»: {allowed}"
    ),
    "move.hand_over": "la mano ya terminó",
    "move.no_hand": "no hay ninguna mano en juego",
    "move.pasar_agachado": (
        "el asiento {seat} no puede pasar: tiene {tiles}, que pega a {either} "
        "(pasar agachado no se permite)"
    ),
    "move.draw_holding": ("el asiento {seat} no puede robar: tiene {tiles}, que pega a {either}"),
    "move.must_draw": (
        "el asiento {seat} no puede pasar: quedan {stock} fichas en el montón y tiene que robar"
    ),
    "move.stock_empty": "el asiento {seat} no puede robar: el montón está vacío",
    "move.must_lead": "el asiento {seat} sale: tiene que poner la primera ficha",
    "move.not_holding": "el asiento {seat} no tiene la ficha {tile}",
    "move.wrong_turn": (
        "le toca al asiento {seat}, que no tiene {tile}: esa ficha es del asiento {holder}"
    ),
    "move.end_on_lead": "la salida {tile} no lleva extremo (:left o :right)",
    "move.forced_lead": "el asiento {seat} tiene que salir con {tile}",
    "move.end_missing": (
        "la ficha {tile} pega por los dos extremos ({left} y {right}): hay que decir "
        "{tile}:left o {tile}:right"
    ),
    "move.no_match": "la ficha {tile} no pega: los extremos son {left} y {right}",
    "move.wrong_end": (
        "la ficha {tile} no pega por {end}, donde hay un {number} (extremos: {left} y {right})"
    ),
    "move.bad_token": "{token} no es una jugada: se escribe 6-4, 6-4:left, 6-4:right o pass",
    "move.bad_end": "en «{token}» el extremo debe ser :left o :right",
    "deal.seats": "el reparto tiene {found} manos y este modo tiene {seats} asientos",
    "deal.hand_size": "la mano del asiento {seat} tiene {found} fichas y deben ser 7",
    "deal.stock_size": "el montón tiene {found} fichas y deben ser {size}",
    "deal.duplicate": "la ficha {tile} aparece dos veces en el reparto",
    "deal.missing": "falta la ficha {tile} en el reparto",
    "deal.no_cochina": "nadie tiene la cochina (6-6) para salir",
    "record.not_json": "el registro no es JSON válido (línea {line}, columna {column})",
    "record.not_text": "el registro no es texto UTF-8",
    "record.shape": "el registro no tiene la forma esperada: {what}",
    "record.unknown_key": (
        "el registro tiene la clave desconocida «{key}»; las claves son: {allowed}"
    ),
    "record.players": "hay {found} jugadores y este modo tiene {seats} asientos",
    "record.after_partida": "la partida ya la ganó el lado {winner}: no puede haber otra mano",
    "record.hand_unfinished": "la mano anterior no terminó",
    "record.leader_needed": "con sorteo hay que decir quién sale (leader)",
    "record.leader_seat": "leader debe ser un asiento de 0 a {high} (no {leader})",
    "record.leader_mismatch": "sale el asiento {expected} según las reglas, no el {leader}",
    "record.moves_after_end": "la mano ya terminó y el registro sigue con más jugadas",
    "record.hand_incomplete": "la mano no está completa: faltan jugadas hasta el final",
    "score.pips_count": "hay {found} cantidades de puntos y este modo tiene {seats} asientos",
    "score.pips_value": "los puntos del asiento {seat} deben ir de 0 a 168 (no {value})",
    "score.pips_total": "entre todas las manos no puede haber más de 168 puntos (hay {value})",
    "score.seat": "{option} debe ser un asiento de 0 a {high} (no {value})",
    "score.domino_pips": "el asiento {seat} dominó, así que no le quedan puntos (no {value})",
    "score.capicua_tranque": "una capicúa es una dominada, no un tranque",
    "score.chuchazo_tranque": "un chuchazo es una dominada con el doble blanco, no un tranque",
    "bot.unknown": "no existe el bot «{name}»; los bots son: {allowed}",
    "bot.option": "el bot {bot} no tiene la opción «{option}»; sus opciones son: {allowed}",
    "match.bot_count": "hay {found} bots y este modo tiene {seats} asientos",
    "match.not_a_move": "el bot {bot} (asiento {seat}) no devolvió una jugada: {move}",
    "match.illegal_move": (
        "el bot {bot} (asiento {seat}) intentó una jugada ilegal, {move}: {detail}"
    ),
    "view.not_object": "«{key}» debe ser un objeto JSON",
    "view.missing": "a la vista le falta «{key}»",
    "view.unknown_key": "la vista tiene la clave desconocida «{key}»; las claves son: {allowed}",
    "view.number": "«{key}» debe ser un número entero de {low} a {high} (no {value})",
    "view.list": "«{key}» debe ser una lista (de {size} elementos)",
    "view.tile_twice": "la ficha {tile} aparece dos veces en «{key}»",
    "view.bad_value": "«{key}» no admite el valor {value}",
    "view.move": (
        "{token} no es una jugada de la vista: se escribe 6-4 (salida), 6-4:left, 6-4:right, "
        "pass o draw"
    ),
    "engine.legal_mismatch": (
        "«legal» no coincide con las jugadas que permiten las fichas y los extremos: {legal}"
    ),
    "engine.bot_failed": "el bot {bot} no pudo elegir jugada: {detail}",
    "engine.internal": "error interno al atender la petición: {detail}",
    "engine.sees_all": (
        "el bot {bot} necesita ver todas las manos: no juega por el protocolo; los bots son: "
        "{allowed}"
    ),
    "engine.not_json": "la petición no es JSON válido (falla en la columna {column})",
    "engine.not_your_turn": (
        "la vista no pide jugada: no le toca al asiento {seat} o la mano terminó"
    ),
    "cli.file": "no se puede leer el archivo {path}: {detail}",
    "cli.file_missing": "no existe el archivo {path}",
    "cli.file_folder": "la ruta {path} es una carpeta, no un archivo",
    "cli.file_denied": "no hay permiso para leer el archivo {path}",
    "cli.set": "--set espera opción=valor (no «{text}»)",
    "cli.pips": "--pips espera números separados por comas, como 8,11,7,14 (no «{text}»)",
    "cli.end_kind": "diga --domino --winner ASIENTO o --tranque --closer ASIENTO",
    "cli.usage": "uso incorrecto: {detail}",
    "review.precision": "no existe la precisión «{value}»; las precisiones son: {allowed}",
    "review.seat": "el asiento debe ser de 0 a {high} (no {seat})",
    "review.hand": "no hay mano {number}: el registro tiene {count} manos terminadas",
    "review.no_hands": "el registro no tiene ninguna mano terminada que repasar",
    "review.not_deciding": "en esta posición a ese asiento no le toca elegir jugada",
    "review.unreadable": "ninguna mano real da esta vista: no se puede analizar",
    "review.busy": "hay demasiados repasos en cola: inténtelo otra vez en un momento",
    "review.not_json": "la petición de repaso no es un objeto JSON válido",
    "review.too_big": "la petición de repaso pasa de {limit} bytes",
    "review.missing": "a la petición de repaso le falta «{key}»",
    "review.whole": "«{key}» debe ser un número entero",
    "review.text": "«{key}» debe ser un texto",
    "review.pista_bots": (
        "la pista solo se da en una mesa donde todos los demás asientos los juegan bots"
    ),
    "review.pista_turn": "la pista se pide en su turno, con una mano en juego",
    "server.bad_json": "el mensaje no es un objeto JSON válido",
    "server.unknown_type": "no existe el tipo de mensaje «{type}»; los tipos son: {allowed}",
    "server.missing_field": "al mensaje {what} le falta el campo {field}",
    "server.extra_field": "el mensaje {what} no lleva el campo {field}",
    "server.bad_field": "el campo {field} del mensaje {what} no tiene un valor válido",
    "server.too_big": "el mensaje pasa de {limit} bytes: se cierra la conexión",
    "server.too_big_http": "la petición pasa de {limit} bytes",
    "server.flood": "más de {limit} mensajes en un segundo: se cierra la conexión",
    "server.too_many": (
        "demasiadas peticiones seguidas desde esta dirección (como mucho {limit} por minuto): "
        "pruebe otra vez en {wait} s"
    ),
    "server.no_mesa": "no existe la mesa «{mesa}»",
    "server.bad_token": "ese token no es de nadie en esta mesa",
    "server.hello_first": "primero hay que saludar a una mesa (hello)",
    "server.miron": "los mirones son de palo: quien mira no puede jugar ni mandar",
    "server.not_host": "eso solo lo puede hacer el anfitrión de la mesa",
    "server.not_seated": "no tiene asiento en esta mesa",
    "server.not_your_turn": "no le toca: le toca al asiento {turn}",
    "server.name": "el nombre debe tener de 1 a 24 letras visibles",
    "server.seat_range": "el asiento debe ser de 0 a {high} (no {seat})",
    "server.seat_taken": "el asiento {seat} ya está ocupado",
    "server.already_seated": "ya está sentado en el asiento {seat}",
    "server.already_queued": "ya está parado esperando su turno",
    "server.not_queued": "no está en la cola de los parados",
    "server.queue_order": "el nuevo orden debe tener a los mismos parados de la cola: {queue}",
    "server.seat_connected": "el asiento {seat} está conectado: no se le puede dar a un bot",
    "server.grace": (
        "el asiento {seat} se desconectó hace {away} s: hay que esperarlo {grace} s "
        "antes de darle el asiento a un bot"
    ),
    "server.partida_running": "hay una partida en juego: espere a que termine",
    "server.seats_empty": "faltan jugadores en los asientos {seats}",
    "server.no_partida": "no hay ninguna partida en juego",
    "server.no_partida_number": "esta mesa no tiene una partida número {number}",
    "server.not_hand_over": "no hay una mano terminada: no se puede pedir la siguiente",
    "server.mode_change": "esta mesa tiene {seats} asientos: las reglas deben ser para {seats}",
    "server.plan_size": "el plan de asientos tiene {found} sillas y estas reglas piden {seats}",
    "server.storage": "no se pudo guardar la jugada: no cambió nada, inténtelo otra vez",
    "server.db": "no se puede usar la base de datos {url}: {detail}",
    "server.port": "no se puede escuchar en {host}:{port}: {detail}",
    "verify.no_seed": "la mano no trae su semilla (seed) y su compromiso (commitment)",
    "verify.commitment": (
        "la semilla no corresponde al compromiso publicado {commitment}: el reparto no es fiable"
    ),
    "verify.deal": "el reparto no es el que sale de la semilla revelada",
    "verify.sorteo": "salió el asiento {leader}, pero el sorteo de la semilla lo gana el {winner}",
    "verify.unfinished": "la partida no ha terminado: solo se comprueban partidas completas",
    "anotador.bad_entry": "la línea no tiene la forma esperada: {what}",
    "anotador.unknown_key": "la clave «{key}» no existe; las claves son: {allowed}",
    "anotador.mesa_name": "la mesa necesita un nombre",
    "anotador.name_empty": "falta el nombre del jugador {seat}",
    "anotador.name_long": "el nombre «{name}» es muy largo (máximo {max} letras)",
    "anotador.name_repeated": "el nombre «{name}» está repetido: cada quien necesita el suyo",
    "anotador.seating": "hay {found} jugadores sentados y {mode} se juega con {seats}",
    "anotador.teams_count": "hay {found} nombres de equipo y esta mesa tiene {teams} lados",
    "anotador.team": "el ajuste debe ir a un lado de 0 a {high} (no {value})",
    "anotador.points": "los puntos de un ajuste son un número entero distinto de 0 (no «{value}»)",
    "anotador.reason": "un ajuste necesita un motivo (por ejemplo: cabra)",
    "anotador.reason_long": "el motivo es muy largo (máximo {max} letras)",
    "anotador.pips_missing": "faltan los tantos de {name}",
    "anotador.pips_both": "dé los tantos por pareja o por jugador, no las dos cosas",
    "anotador.team_pips_rule": "los tantos por pareja solo se dan en un tranque por parejas",
    "anotador.team_pips_count": "hacen falta los tantos de las 2 parejas (hay {found})",
    "anotador.leader_needed": "diga quién salió en esta mano",
    "anotador.after_end": (
        "así la partida se gana en la mano {hand} y sobran las líneas que siguen: "
        "bórrelas primero o deshaga"
    ),
    "anotador.partida_over": "la partida ya la ganó {winner}: empiece una partida nueva",
    "anotador.not_found": "no hay ninguna línea «{target}» en esta partida",
    "anotador.old_partida": "esa línea es de una partida anterior: solo se corrige la actual",
    "anotador.nothing_to_undo": "no hay nada que deshacer",
    "anotador.empty_partida": "la partida actual todavía no tiene ninguna línea",
    "anotador.parados_unfinished": (
        "la partida no ha terminado: los parados entran cuando un lado pierde"
    ),
    "anotador.mesa_not_found": "no existe la mesa «{mesa}»",
    "anotador.read_only": "este enlace es solo para mirar: no se puede anotar con él",
    "anotador.key_reused": "la clave {key} ya se usó para otra acción distinta",
    "play.bad_input": (
        "no entiendo «{text}»: escribe el número de una ficha o la ficha (6-4), "
        "p para pasar, r para robar o ? para ayuda"
    ),
    "play.number_range": "no hay ficha número {number}: tus fichas van del 1 al {high}",
    "play.bad_end": "«{text}» no es un extremo: escribe i (izquierda) o d (derecha)",
    "play.seat": "--seat debe ser un asiento de 0 a {high} (no {seat})",
    "play.bot_not_offered": (
        "el bot «{name}» es solo para pruebas de rendimiento; para jugar están: {allowed}"
    ),
}

EN: Final[dict[str, str]] = {
    "tile.invalid": "«{text}» is not a tile: write it like 6-4, with numbers from 0 to 6",
    "rules.unknown_preset": "there is no preset «{preset}»; the presets are: {allowed}",
    "rules.unknown_option": "there is no option «{option}»; the options are: {allowed}",
    "rules.bad_value": "option {option} does not take «{value}»; allowed values: {allowed}",
    "rules.target": "option target must be a whole number from {low} to {high} (not «{value}»)",
    "rules.bonus": "option {option} must be a whole number from {low} to {high} (not «{value}»)",
    "rules.doble_seis_stock": (
        "option first_lead does not take doble_seis in {mode}, which has a stock; "
        "allowed values: {allowed}"
    ),
    "rules.missing_preset": "rules must name their preset: {allowed}",
    "rules.not_rules": "rules must be a preset name or an object with «preset»: {allowed}",
    "move.hand_over": "the hand is over",
    "move.no_hand": "no hand is being played",
    "move.pasar_agachado": (
        "seat {seat} cannot pass: it holds {tiles}, which fits {either} "
        "(passing while able to play is not allowed)"
    ),
    "move.draw_holding": "seat {seat} cannot draw: it holds {tiles}, which fits {either}",
    "move.must_draw": "seat {seat} cannot pass: {stock} tiles are left in the stock; it must draw",
    "move.stock_empty": "seat {seat} cannot draw: the stock is empty",
    "move.must_lead": "seat {seat} leads: it must put down the first tile",
    "move.not_holding": "seat {seat} does not hold {tile}",
    "move.wrong_turn": "it is seat {seat}'s turn, and it does not hold {tile}: seat {holder} does",
    "move.end_on_lead": "the lead {tile} takes no end (:left or :right)",
    "move.forced_lead": "seat {seat} must lead {tile}",
    "move.end_missing": (
        "{tile} fits both ends ({left} and {right}): write {tile}:left or {tile}:right"
    ),
    "move.no_match": "{tile} does not fit: the open ends are {left} and {right}",
    "move.wrong_end": (
        "{tile} does not fit on the {end}, which shows {number} (ends: {left} and {right})"
    ),
    "move.bad_token": "{token} is not a move: write 6-4, 6-4:left, 6-4:right or pass",
    "move.bad_end": "in «{token}» the end must be :left or :right",
    "deal.seats": "the deal has {found} hands and this mode has {seats} seats",
    "deal.hand_size": "seat {seat}'s hand has {found} tiles; it must have 7",
    "deal.stock_size": "the stock has {found} tiles; it must have {size}",
    "deal.duplicate": "tile {tile} appears twice in the deal",
    "deal.missing": "tile {tile} is missing from the deal",
    "deal.no_cochina": "nobody holds the 6-6 to lead",
    "record.not_json": "the record is not valid JSON (line {line}, column {column})",
    "record.not_text": "the record is not UTF-8 text",
    "record.shape": "the record does not have the expected shape: {what}",
    "record.unknown_key": "the record has an unknown key «{key}»; the keys are: {allowed}",
    "record.players": "there are {found} players and this mode has {seats} seats",
    "record.after_partida": "side {winner} already won the partida: no further hand is allowed",
    "record.hand_unfinished": "the previous hand did not end",
    "record.leader_needed": "with a sorteo the record must say who leads (leader)",
    "record.leader_seat": "leader must be a seat from 0 to {high} (not {leader})",
    "record.leader_mismatch": "the rules make seat {expected} lead, not seat {leader}",
    "record.moves_after_end": "the hand is over and the record has more moves",
    "record.hand_incomplete": "the hand is not complete: moves are missing up to its end",
    "score.pips_count": "there are {found} pip counts and this mode has {seats} seats",
    "score.pips_value": "seat {seat}'s pips must be from 0 to 168 (not {value})",
    "score.pips_total": "all hands together cannot hold more than 168 pips ({value} given)",
    "score.seat": "{option} must be a seat from 0 to {high} (not {value})",
    "score.domino_pips": "seat {seat} dominated, so it holds no pips (not {value})",
    "score.capicua_tranque": "a capicúa is a dominada, not a tranque",
    "score.chuchazo_tranque": "a chuchazo is a dominada with the double blank, not a tranque",
    "bot.unknown": "there is no bot «{name}»; the bots are: {allowed}",
    "bot.option": "bot {bot} has no option «{option}»; its options are: {allowed}",
    "match.bot_count": "there are {found} bots and this mode has {seats} seats",
    "match.not_a_move": "bot {bot} (seat {seat}) did not return a move: {move}",
    "match.illegal_move": "bot {bot} (seat {seat}) tried an illegal move, {move}: {detail}",
    "view.not_object": "«{key}» must be a JSON object",
    "view.missing": "the view lacks «{key}»",
    "view.unknown_key": "the view has an unknown key «{key}»; the keys are: {allowed}",
    "view.number": "«{key}» must be a whole number from {low} to {high} (not {value})",
    "view.list": "«{key}» must be a list (of {size} items)",
    "view.tile_twice": "tile {tile} appears twice in «{key}»",
    "view.bad_value": "«{key}» does not take the value {value}",
    "view.move": (
        "{token} is not a move of the view: write 6-4 (salida), 6-4:left, 6-4:right, pass or draw"
    ),
    "engine.legal_mismatch": (
        "«legal» does not match the moves the tiles and the open ends allow: {legal}"
    ),
    "engine.bot_failed": "bot {bot} could not choose a move: {detail}",
    "engine.internal": "internal error while answering the request: {detail}",
    "engine.sees_all": (
        "bot {bot} needs to see every hand: it does not play through the protocol; the bots "
        "are: {allowed}"
    ),
    "engine.not_json": "the request is not valid JSON (it fails at column {column})",
    "engine.not_your_turn": (
        "the view asks for no move: it is not seat {seat}'s turn, or the hand is over"
    ),
    "cli.file": "cannot read the file {path}: {detail}",
    "cli.file_missing": "there is no file {path}",
    "cli.file_folder": "the path {path} is a folder, not a file",
    "cli.file_denied": "no permission to read the file {path}",
    "cli.set": "--set expects option=value (not «{text}»)",
    "cli.pips": "--pips expects numbers separated by commas, like 8,11,7,14 (not «{text}»)",
    "cli.end_kind": "say --domino --winner SEAT or --tranque --closer SEAT",
    "cli.usage": "wrong usage: {detail}",
    "review.precision": "there is no precision «{value}»; the precisions are: {allowed}",
    "review.seat": "the seat must be from 0 to {high} (not {seat})",
    "review.hand": "there is no hand {number}: the record has {count} finished hands",
    "review.no_hands": "the record has no finished hand to review",
    "review.not_deciding": "in this position that seat has no move to choose",
    "review.unreadable": "no real hand gives this view: it cannot be analysed",
    "review.busy": "too many reviews are waiting: try again in a moment",
    "review.not_json": "the review request is not a valid JSON object",
    "review.too_big": "the review request is longer than {limit} bytes",
    "review.missing": "the review request lacks «{key}»",
    "review.whole": "«{key}» must be a whole number",
    "review.text": "«{key}» must be a text",
    "review.pista_bots": "a hint is only given at a mesa where bots play every other seat",
    "review.pista_turn": "ask for a hint on your turn, with a hand in play",
    "server.bad_json": "the message is not a valid JSON object",
    "server.unknown_type": "there is no message type «{type}»; the types are: {allowed}",
    "server.missing_field": "the {what} message lacks the field {field}",
    "server.extra_field": "the {what} message does not take the field {field}",
    "server.bad_field": "the field {field} of the {what} message does not have a valid value",
    "server.too_big": "the message is longer than {limit} bytes: closing the connection",
    "server.too_big_http": "the request is longer than {limit} bytes",
    "server.flood": "more than {limit} messages in one second: closing the connection",
    "server.too_many": (
        "too many requests in a row from this address (at most {limit} a minute): "
        "try again in {wait} s"
    ),
    "server.no_mesa": "there is no mesa «{mesa}»",
    "server.bad_token": "that token belongs to nobody at this mesa",
    "server.hello_first": "say hello to a mesa first",
    "server.miron": "mirones only watch: a spectator cannot play or give orders",
    "server.not_host": "only the mesa's host can do that",
    "server.not_seated": "you have no seat at this mesa",
    "server.not_your_turn": "it is not your turn: it is seat {turn}'s",
    "server.name": "a name must have 1 to 24 visible characters",
    "server.seat_range": "the seat must be from 0 to {high} (not {seat})",
    "server.seat_taken": "seat {seat} is taken",
    "server.already_seated": "you are already in seat {seat}",
    "server.already_queued": "you are already waiting in the queue",
    "server.not_queued": "you are not in the queue",
    "server.queue_order": "the new order must hold the same people as the queue: {queue}",
    "server.seat_connected": "seat {seat} is connected: it cannot be given to a bot",
    "server.grace": (
        "seat {seat} went away {away} s ago: wait {grace} s before giving the seat to a bot"
    ),
    "server.partida_running": "a partida is being played: wait until it ends",
    "server.seats_empty": "seats {seats} have nobody in them",
    "server.no_partida": "no partida is being played",
    "server.no_partida_number": "this mesa has no partida number {number}",
    "server.not_hand_over": "no hand has just ended: the next one cannot be asked for",
    "server.mode_change": "this mesa has {seats} seats: the rules must be for {seats}",
    "server.plan_size": "the seating plan has {found} chairs and these rules need {seats}",
    "server.storage": "the move could not be saved: nothing changed, try again",
    "server.db": "cannot use the database {url}: {detail}",
    "server.port": "cannot listen on {host}:{port}: {detail}",
    "verify.no_seed": "the hand carries no seed and commitment",
    "verify.commitment": (
        "the seed does not match the published commitment {commitment}: the deal is not fair"
    ),
    "verify.deal": "the deal is not the one the revealed seed makes",
    "verify.sorteo": "seat {leader} led, but the seed's sorteo is won by seat {winner}",
    "verify.unfinished": "the partida is not finished: only complete partidas are checked",
    "anotador.bad_entry": "the line does not have the expected shape: {what}",
    "anotador.unknown_key": "there is no key «{key}»; the keys are: {allowed}",
    "anotador.mesa_name": "the mesa needs a name",
    "anotador.name_empty": "player {seat} has no name",
    "anotador.name_long": "the name «{name}» is too long (at most {max} letters)",
    "anotador.name_repeated": "the name «{name}» appears twice: each player needs their own",
    "anotador.seating": "{found} players are seated and {mode} is played by {seats}",
    "anotador.teams_count": "there are {found} side names and this mesa has {teams} sides",
    "anotador.team": "an adjustment goes to a side from 0 to {high} (not {value})",
    "anotador.points": "an adjustment's points are a whole number other than 0 (not «{value}»)",
    "anotador.reason": "an adjustment needs a reason (a cabra, for example)",
    "anotador.reason_long": "the reason is too long (at most {max} letters)",
    "anotador.pips_missing": "{name}'s pips are missing",
    "anotador.pips_both": "give the pips by pair or by player, not both",
    "anotador.team_pips_rule": "pair totals are only given for a tranque by pairs",
    "anotador.team_pips_count": "both pairs' totals are needed ({found} given)",
    "anotador.leader_needed": "say who led this hand",
    "anotador.after_end": (
        "then the partida is won in hand {hand} and the lines after it are too many: "
        "delete them first or undo"
    ),
    "anotador.partida_over": "{winner} already won the partida: start a new one",
    "anotador.not_found": "there is no line «{target}» in this partida",
    "anotador.old_partida": "that line is from an earlier partida: only the current one can change",
    "anotador.nothing_to_undo": "there is nothing to undo",
    "anotador.empty_partida": "the current partida has no line yet",
    "anotador.parados_unfinished": (
        "the partida is not over: the parados come in when a side loses"
    ),
    "anotador.mesa_not_found": "there is no mesa «{mesa}»",
    "anotador.read_only": "this link is for watching only: it cannot keep score",
    "anotador.key_reused": "the key {key} was already used for a different action",
    "play.bad_input": (
        "I do not understand «{text}»: type a tile's number or the tile (6-4), "
        "p to pass, r to draw or ? for help"
    ),
    "play.number_range": "there is no tile number {number}: your tiles go from 1 to {high}",
    "play.bad_end": "«{text}» is not an end: type l (left) or r (right)",
    "play.seat": "--seat must be a seat from 0 to {high} (not {seat})",
    "play.bot_not_offered": (
        "the «{name}» bot is for benchmarks only; the bots to play with are: {allowed}"
    ),
}

CATALOGUES: Final = {"es": ES, "en": EN}
WHERE: Final = {
    "es": ("Mano {hand}", "jugada {move}"),
    "en": ("Hand {hand}", "move {move}"),
}


def render_error(error: FichaFlowError, lang: str = "es") -> str:
    """The error's text in ``lang``, prefixed with where in a record it happened."""
    catalogue = CATALOGUES.get(lang, ES)
    template = catalogue.get(error.code, ES.get(error.code, error.code))
    params = dict(error.params)
    if "left" in params and "right" in params:
        left, right = params["left"], params["right"]
        either = "o" if lang == "es" else "or"
        params["either"] = str(left) if left == right else f"{left} {either} {right}"
    try:
        text = template.format(**params)
    except (KeyError, IndexError):
        text = template
    hand_word, move_word = WHERE.get(lang, WHERE["es"])
    where = []
    if error.hand is not None:
        where.append(hand_word.format(hand=error.hand))
    if error.move is not None:
        where.append(move_word.format(move=error.move))
    return f"{', '.join(where)}: {text}" if where else text[:1].upper() + text[1:]
